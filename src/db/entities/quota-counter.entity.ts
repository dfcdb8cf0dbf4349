import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** How much of a daily limit a user has used: one row per user, UTC day and kind of use. */
@Entity('quota_counter')
@Index('idx_quota_counter_day', ['day'])
export class QuotaCounterEntity {
  @PrimaryColumn({ type: 'integer' })
  accountId: number;

  /** the UTC day, YYYY-MM-DD */
  @PrimaryColumn({ type: 'date' })
  day: string;

  /** calls, batches or predictions */
  @PrimaryColumn({ type: 'text' })
  kind: string;

  @Column({ type: 'integer' })
  used: number;

  /** what the last take granted, written by the same statement that raised `used` (see SqlQuotaStore) */
  @Column({ type: 'integer' })
  lastGrant: number;
}
