import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WatchlistEntity } from './watchlist.entity';

@Entity('watchlist_bill')
@Index('idx_watchlist_bill_bill', ['billId'])
export class WatchlistBillEntity {
  @PrimaryColumn({ type: 'integer' })
  watchlistId: number;

  @ManyToOne(() => WatchlistEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'watchlist_id', foreignKeyConstraintName: 'fk_watchlist_bill_watchlist' })
  watchlist?: WatchlistEntity;

  /** a Bills API bill id (the bill existed when it was added) */
  @PrimaryColumn({ type: 'integer' })
  billId: number;

  @CreateDateColumn({ type: 'timestamptz' })
  addedAt: Date;
}
