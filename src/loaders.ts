import DataLoader from 'dataloader';
import type { BillSponsorEntity } from '../entities/bill-sponsor.entity';
import type { BillStageEntity } from '../entities/bill-stage.entity';
import type { BillEntity } from '../entities/bill.entity';
import type { DivisionEntity } from '../entities/division.entity';
import type { ParliamentarySessionEntity } from '../entities/parliamentary-session.entity';
import type { BillService } from './services/bill.service';

/** One set per request, so batching and caching never cross users or requests. */
export interface Loaders {
  bill: DataLoader<number, BillEntity | null>;
  session: DataLoader<number, ParliamentarySessionEntity | null>;
  stagesOfBill: DataLoader<number, BillStageEntity[]>;
  sponsorsOfBill: DataLoader<number, BillSponsorEntity[]>;
  divisionsOfBill: DataLoader<number, DivisionEntity[]>;
}

export function createLoaders(bills: BillService): Loaders {
  return {
    bill: new DataLoader((ids) => bills.byIds(ids)),
    session: new DataLoader((ids) => bills.sessionsByIds(ids)),
    stagesOfBill: new DataLoader((ids) => bills.stagesOfBills(ids)),
    sponsorsOfBill: new DataLoader((ids) => bills.sponsorsOfBills(ids)),
    divisionsOfBill: new DataLoader((ids) => bills.divisionsOfBills(ids)),
  };
}
