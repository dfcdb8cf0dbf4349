import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { BillKind, BillOutcome, House } from '../../vocabulary';

@Entity('bill')
@Index('idx_bill_kind', ['kind'])
@Index('idx_bill_session', ['introducedSessionId'])
@Index('idx_bill_outcome', ['outcome'])
@Index('idx_bill_originating_house', ['originatingHouse'])
export class BillEntity {
  /** Bills API bill id */
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', nullable: true })
  longTitle: string | null;

  /** HTML from the Bills API */
  @Column({ type: 'text', nullable: true })
  summary: string | null;

  @Column({ type: 'integer' })
  billTypeId: number;

  @Column({ type: 'text' })
  billType: string;

  @Column({ type: 'text' })
  category: string;

  @Column({ type: 'text' })
  kind: BillKind;

  @Column({ type: 'text' })
  originatingHouse: House;

  @Column({ type: 'integer' })
  introducedSessionId: number;

  @Column({ type: 'integer', array: true })
  sessionIds: number[];

  @Column({ type: 'text', array: true })
  sponsorOrganisations: string[];

  @Column({ type: 'boolean', nullable: true })
  leadSponsorPartyInGovernment: boolean | null;

  @Column({ type: 'boolean' })
  isAct: boolean;

  @Column({ type: 'date', nullable: true })
  withdrawnDate: string | null;

  /** as the source knew it when read: a label for training and checking, never a feature */
  @Column({ type: 'text' })
  outcome: BillOutcome;

  @Column({ type: 'date', nullable: true })
  introducedDate: string | null;

  @Column({ type: 'date', nullable: true })
  royalAssentDate: string | null;

  @Column({ type: 'text' })
  stageHistory: 'full' | 'truncated' | 'current_stage_only';

  @Column({ type: 'integer' })
  missingStageCount: number;

  /** the source's own last-update time, which incremental sync pages by */
  @Column({ type: 'timestamptz', nullable: true })
  sourceUpdatedAt: Date | null;

  /** SHA-256 of the normalised record: an unchanged bill is not rewritten */
  @Column({ type: 'text' })
  contentHash: string;

  @Column({ type: 'timestamptz' })
  ingestedAt: Date;
}
