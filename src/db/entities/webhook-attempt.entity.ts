import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/**
 * One attempt of a delivery, as it ended: a receiver's earlier failures stay listed after a retry
 * succeeds. Written with the delivery's outcome, in the same statement (except a success at the first
 * attempt, which the delivery's last_* columns record alone); removed with the delivery.
 */
@Entity('webhook_attempt')
/** a delivery's attempts, newest first: its listing */
@Index('idx_webhook_attempt_delivery', ['deliveryId', 'attemptedAt', 'id'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  deliveryId: number;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'fk_webhook_attempt_delivery' })
  delivery?: WebhookDeliveryEntity;

  /** its number within the delivery's retry schedule (a recovery starts the count again) */
  @Column({ type: 'integer' })
  attempt: number;

  /** the HTTP status answered; null when none came */
  @Column({ type: 'integer', nullable: true })
  statusCode: number | null;

  /** why it failed; null when delivered */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'integer' })
  durationMs: number;

  @Column({ type: 'timestamptz' })
  attemptedAt: Date;
}
