import { AccountEntity } from '../../entities/account.entity';
import { ApiKeyEntity } from '../../entities/api-key.entity';
import { BillSponsorEntity } from '../../entities/bill-sponsor.entity';
import { BillStageEntity } from '../../entities/bill-stage.entity';
import { BillEntity } from '../../entities/bill.entity';
import { DivisionEntity } from '../../entities/division.entity';
import { ModelVersionEntity } from '../../entities/model-version.entity';
import { QuotaCounterEntity } from '../../entities/quota-counter.entity';
import { ParliamentarySessionEntity } from '../../entities/parliamentary-session.entity';
import { SyncStateEntity } from '../../entities/sync-state.entity';

/** Every entity, listed (not globbed) so the same list works compiled and under ts-jest. */
export const ENTITIES = [
  ParliamentarySessionEntity,
  BillEntity,
  BillSponsorEntity,
  BillStageEntity,
  DivisionEntity,
  AccountEntity,
  ApiKeyEntity,
  SyncStateEntity,
  ModelVersionEntity,
  QuotaCounterEntity,
];
