import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

export const MAIL_STATUSES = ['pending', 'sent', 'failed', 'suppressed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
export const MAIL_KINDS = ['verification', 'alert', 'test', 'digest'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * The mail outbox (src/events/mail/): one message for one account, written in the transaction of
 * what causes it (a sign-up, an event) and composed then, so every retry sends the same bytes with
 * the same Message-ID. One row per account and event id: an event is mailed to an account once.
 */
@Entity('mail_message')
@Index('uq_mail_message_account_event', ['accountId', 'eventId'], { unique: true })
@Index('idx_mail_message_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
export class MailMessageEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_mail_message_account' })
  account?: AccountEntity;

  @Column({ type: 'text' })
  kind: MailKind;

  /** the X-Bill-Progress-Event-Id header: the event's id, or the mail's own (`mail_…`) for a verification */
  @Column({ type: 'text' })
  eventId: string;

  /** the address as it was when the row was written (a change of address does not redirect it) */
  @Column({ type: 'text' })
  toAddress: string;

  /** the Message-ID header, fixed when the row is written */
  @Column({ type: 'text' })
  messageId: string;

  @Column({ type: 'text' })
  subject: string;

  /** the plain-text part, kept beside the MIME text for the local mailbox */
  @Column({ type: 'text' })
  textBody: string;

  /** the whole message (RFC 5322, built by nodemailer's MailComposer), byte for byte what every attempt sends */
  @Column({ type: 'text' })
  raw: string;

  @Column({ type: 'text', default: 'pending' })
  status: MailStatus;

  /** attempts begun so far (a claim counts one, so an attempt cut short by a crash is counted) */
  @Column({ type: 'integer', default: 0 })
  attempt: number;

  /** when it is due; while an attempt is under way, when that attempt's claim lapses */
  @Column({ type: 'timestamptz' })
  nextAttemptAt: Date;

  /** set while an attempt is under way */
  @Column({ type: 'timestamptz', nullable: true })
  claimedAt: Date | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  sentAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
