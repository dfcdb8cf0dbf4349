import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * The local mailbox: where mail goes without SMTP_URL (the embedded default), one row per message
 * the outbox delivered, so a newcomer sees what would have been sent (GraphQL `outbox`,
 * `GET /api/v1/account/outbox`). One row per outbox row: a delivery repeated after a crash adds none.
 */
@Entity('local_mailbox')
@Index('uq_local_mailbox_message', ['mailMessageId'], { unique: true })
@Index('idx_local_mailbox_account', ['accountId', 'id'])
export class LocalMailboxEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_local_mailbox_account' })
  account?: AccountEntity;

  /** the outbox row delivered here (no foreign key: the outbox's finished rows may be pruned) */
  @Column({ type: 'integer' })
  mailMessageId: number;

  @Column({ type: 'text' })
  toAddress: string;

  @Column({ type: 'text' })
  messageId: string;

  @Column({ type: 'text' })
  eventId: string;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  textBody: string;

  @CreateDateColumn({ type: 'timestamptz' })
  deliveredAt: Date;
}
