import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * An instant alert not mailed because its account had reached the day's 50 emails (issue 33):
 * kept, so the next digest can list it. One row per account and event.
 */
@Entity('mail_deferred_event')
@Index('uq_mail_deferred_event_account_event', ['accountId', 'eventId'], { unique: true })
export class MailDeferredEventEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_mail_deferred_event_account' })
  account?: AccountEntity;

  /** the watchlist whose settings asked for it (no foreign key: the event stays recorded if the watchlist goes) */
  @Column({ type: 'integer' })
  watchlistId: number;

  @Column({ type: 'text' })
  eventId: string;

  @Column({ type: 'text' })
  eventType: string;

  @Column({ type: 'integer' })
  billId: number;

  /** the event as every channel carries it (JSON) */
  @Column({ type: 'text' })
  body: string;

  /** set once a digest has listed it */
  @Column({ type: 'timestamptz', nullable: true })
  digestedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
