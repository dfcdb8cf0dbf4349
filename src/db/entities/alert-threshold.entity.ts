import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WatchlistEntity } from './watchlist.entity';

import type { AlertType, Comparison } from '../../vocabulary';

export type { AlertType, Comparison };

/** A condition on the predictions of one bill, or of every bill of a watchlist (billId null). */
@Entity('alert_threshold')
@Index('idx_alert_threshold_account', ['accountId'])
@Index('idx_alert_threshold_watchlist', ['watchlistId'])
export class AlertThresholdEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @Column({ type: 'integer' })
  watchlistId: number;

  @ManyToOne(() => WatchlistEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'watchlist_id', foreignKeyConstraintName: 'fk_alert_threshold_watchlist' })
  watchlist?: WatchlistEntity;

  @Column({ type: 'integer', nullable: true })
  billId: number | null;

  @Column({ type: 'text' })
  alertType: AlertType;

  @Column({ type: 'double precision' })
  thresholdValue: number;

  @Column({ type: 'text' })
  comparison: Comparison;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastTriggeredAt: Date | null;
}
