import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AlertThresholdEntity } from './alert-threshold.entity';

/**
 * Whether a threshold may fire for a bill: it fires when its condition becomes true, stays quiet
 * while the condition holds (disarmed), and re-arms when the condition becomes false.
 */
@Entity('alert_arm_state')
export class AlertArmStateEntity {
  @PrimaryColumn({ type: 'integer' })
  thresholdId: number;

  @ManyToOne(() => AlertThresholdEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'threshold_id', foreignKeyConstraintName: 'fk_alert_arm_state_threshold' })
  threshold?: AlertThresholdEntity;

  @PrimaryColumn({ type: 'integer' })
  billId: number;

  @Column({ type: 'boolean' })
  armed: boolean;
}
