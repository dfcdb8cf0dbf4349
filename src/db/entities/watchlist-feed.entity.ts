import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { WatchlistEntity } from './watchlist.entity';

/**
 * A watchlist's secret feed address (its calendar and Atom feed, issue 33). The token itself is
 * never stored: only its SHA-256 (what a request is looked up by) and the random salt it is
 * derived from under the server's key, so the owner can be shown the address again while a copy
 * of the database alone reveals none. A revoked address keeps its row, with neither.
 */
@Entity('watchlist_feed')
@Index('uq_watchlist_feed_token', ['tokenHash'], { unique: true })
export class WatchlistFeedEntity {
  @PrimaryColumn({ type: 'integer' })
  watchlistId: number;

  @OneToOne(() => WatchlistEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'watchlist_id', foreignKeyConstraintName: 'fk_watchlist_feed_watchlist' })
  watchlist?: WatchlistEntity;

  /** 32 random bytes, base64url; null once revoked */
  @Column({ type: 'text', nullable: true })
  salt: string | null;

  /** SHA-256 of the token; null once revoked */
  @Column({ type: 'bytea', nullable: true })
  tokenHash: Buffer | null;

  @Column({ type: 'timestamptz' })
  issuedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
