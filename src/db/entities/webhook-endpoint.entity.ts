import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { EventType, WebhookFormat } from '../../vocabulary';
import { AccountEntity } from './account.entity';

/**
 * Where a user wants events POSTed. Its signing secrets are stored encrypted (src/events/webhooks/secret-box.ts):
 * the service must sign with them, so they cannot be hashed, and a copy of the database alone does
 * not reveal them.
 */
@Entity('webhook_endpoint')
@Index('idx_webhook_endpoint_account', ['accountId'])
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_webhook_endpoint_account' })
  account?: AccountEntity;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', array: true })
  events: EventType[];

  /** what its deliveries look like; chosen at registration, never changed (a delivery keeps its own) */
  @Column({ type: 'text', default: 'standard' })
  format: WebhookFormat;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** every bill in the data, not only those on the owner's watchlists */
  @Column({ type: 'boolean', default: false })
  allBills: boolean;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** why the service disabled it (every attempt failing for 3 days); null when active or disabled by its owner */
  @Column({ type: 'text', nullable: true })
  disabledReason: string | null;

  /** the signing secret, encrypted; a Slack or Teams endpoint has one too, unused, as its deliveries are unsigned */
  @Column({ type: 'text' })
  secretSealed: string;

  /** the secret before the last rotation, still signing until previousSecretExpiresAt */
  @Column({ type: 'text', nullable: true })
  previousSecretSealed: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  /** the first failed attempt since the last success; null after a success */
  @Column({ type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
