import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * One digest slot occurrence handled for one account (issue 33): written in the transaction that
 * enqueues the digest email (or, when nothing changed, alone), so a slot is never mailed twice,
 * whichever process or restart gets to it. `covered_until` is where the next digest of each of its
 * watchlists starts listing changes, at whatever slot; `event_ids`, what this one listed, so the overlap the next one reads
 * (for events committed late by a transaction that began earlier) repeats none.
 */
@Entity('mail_digest')
@Index('uq_mail_digest_account_slot_at', ['accountId', 'slot', 'slotAt'], { unique: true })
export class MailDigestEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_mail_digest_account' })
  account?: AccountEntity;

  /** `daily 08:00` or `weekly monday 08:00` (Europe/London) */
  @Column({ type: 'text' })
  slot: string;

  /** the occurrence: the instant London's clocks showed the slot's time */
  @Column({ type: 'timestamptz' })
  slotAt: Date;

  /** the database's time the changes were read up to */
  @Column({ type: 'timestamptz' })
  coveredUntil: Date;

  /** the watchlists it covered: where each one's next digest starts, at whatever slot */
  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  watchlistIds: number[];

  /** the service events the digest listed */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  eventIds: string[];

  /** each bill's Royal Assent and next-stage-30d probabilities as this digest saw them (`{"2900": [0.41, 0.22]}`): what the next one's moves are measured from */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  probabilities: Record<string, [number, number]>;

  /** the email's X-Bill-Progress-Event-Id (`digest_…`); null when nothing changed and none was sent */
  @Column({ type: 'text', nullable: true })
  mailEventId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
