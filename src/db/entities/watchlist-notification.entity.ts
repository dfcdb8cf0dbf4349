import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { WatchlistEntity } from './watchlist.entity';

/**
 * How a watchlist's events reach its owner by email (issue 33): off, instant, or a daily or weekly
 * digest at a local time (Europe/London). A watchlist without a row is `off`.
 */
@Entity('watchlist_notification')
export class WatchlistNotificationEntity {
  @PrimaryColumn({ type: 'integer' })
  watchlistId: number;

  @OneToOne(() => WatchlistEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'watchlist_id', foreignKeyConstraintName: 'fk_watchlist_notification_watchlist' })
  watchlist?: WatchlistEntity;

  /** off | instant | daily | weekly */
  @Column({ type: 'text' })
  email: string;

  /** HH:MM, Europe/London: a digest's time */
  @Column({ type: 'text' })
  time: string;

  /** monday … sunday: a weekly digest's day */
  @Column({ type: 'text' })
  day: string;

  /** the event types mailed */
  @Column({ type: 'text', array: true })
  events: string[];

  /** when its digests were switched on (from off or instant); null while it sends none: a first digest starts here */
  @Column({ type: 'timestamptz', nullable: true })
  digestsSince: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
