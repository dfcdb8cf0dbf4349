import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertType, Comparison } from './alert-threshold.entity';

/**
 * A threshold that fired for a bill. Self-contained (no foreign keys to the threshold or the
 * watchlist): history stays readable after they are deleted, and prediction.crossed_threshold
 * events will be made from these records alone.
 */
@Entity('alert_trigger')
@Index('idx_alert_trigger_account_time', ['accountId', 'triggeredAt'])
export class AlertTriggerEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @Column({ type: 'integer' })
  thresholdId: number;

  @Column({ type: 'integer' })
  watchlistId: number;

  @Column({ type: 'text' })
  watchlistName: string;

  @Column({ type: 'integer' })
  billId: number;

  @Column({ type: 'text' })
  alertType: AlertType;

  @Column({ type: 'text' })
  comparison: Comparison;

  @Column({ type: 'double precision' })
  thresholdValue: number;

  /** the value that met the condition (days, probability, or a rise/jump for trend/spike) */
  @Column({ type: 'double precision' })
  valueSeen: number;

  /** the nowcast's reference date */
  @Column({ type: 'date' })
  referenceDate: string;

  @Column({ type: 'timestamptz' })
  triggeredAt: Date;

  /** manual (POST …/alerts/check) or scheduled (the hourly Pro check) */
  @Column({ type: 'text' })
  source: 'manual' | 'scheduled';
}
