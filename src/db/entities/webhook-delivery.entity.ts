import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { WebhookFormat } from '../../vocabulary';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * The outbox: one event for one endpoint, written in the transaction that emitted the event, with
 * the exact body sent on every attempt (so every retry carries the same bytes and webhook-id).
 * No foreign key to an event table: the row holds all it needs.
 */
@Entity('webhook_delivery')
@Index('uq_webhook_delivery_endpoint_event', ['endpointId', 'eventId'], { unique: true })
/** each endpoint's deliveries newest first: its listing, `recover` and the retention job's boundary */
@Index('idx_webhook_delivery_endpoint_created', ['endpointId', 'createdAt', 'id'])
@Index('idx_webhook_delivery_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  endpointId: number;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'fk_webhook_delivery_endpoint' })
  endpoint?: WebhookEndpointEntity;

  @Column({ type: 'text' })
  eventId: string;

  @Column({ type: 'text' })
  eventType: string;

  /** the JSON body, byte for byte what is signed and sent */
  @Column({ type: 'text' })
  body: string;

  /** the format the body was built in, its endpoint's when queued: standard deliveries are signed, chat ones are not */
  @Column({ type: 'text', default: 'standard' })
  format: WebhookFormat;

  @Column({ type: 'text', default: 'pending' })
  status: DeliveryStatus;

  /** attempts begun so far (a claim counts one, so an attempt cut short by a crash is counted) */
  @Column({ type: 'integer', default: 0 })
  attempt: number;

  /** when it is due; while an attempt is under way, when that attempt's claim lapses */
  @Column({ type: 'timestamptz' })
  nextAttemptAt: Date;

  /** set while an attempt is under way */
  @Column({ type: 'timestamptz', nullable: true })
  claimedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  @Column({ type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'integer', nullable: true })
  lastDurationMs: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
