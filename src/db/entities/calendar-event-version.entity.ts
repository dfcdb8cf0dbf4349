import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WatchlistEntity } from './watchlist.entity';

/**
 * What a watchlist's calendar last said of one event (by its UID): the SEQUENCE calendar apps
 * update an event by, raised when the event's content changes, and when it did (DTSTAMP,
 * LAST-MODIFIED). Kept in the database so it survives restarts and every instance agrees. The
 * UID `@calendar` records the whole calendar's text, for its Last-Modified.
 */
@Entity('calendar_event_version')
export class CalendarEventVersionEntity {
  @PrimaryColumn({ type: 'integer' })
  watchlistId: number;

  @ManyToOne(() => WatchlistEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'watchlist_id', foreignKeyConstraintName: 'fk_calendar_event_version_watchlist' })
  watchlist?: WatchlistEntity;

  @PrimaryColumn({ type: 'text' })
  uid: string;

  /** SHA-256 (hex) of what the event says: its date, status, summary, description and link */
  @Column({ type: 'text' })
  contentHash: string;

  @Column({ type: 'integer' })
  sequence: number;

  @Column({ type: 'timestamptz' })
  changedAt: Date;
}
