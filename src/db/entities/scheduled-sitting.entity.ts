import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { House } from '../../vocabulary';
import { BillEntity } from './bill.entity';

/**
 * A stage sitting a sync saw dated after its day, with when it was first seen: the Bills API keeps
 * no history of when a date was announced, so the service keeps its own. A date that moves (or is
 * taken away) before it comes is superseded, not changed, so the rows are the record of the moves.
 */
@Entity('scheduled_sitting')
@Index('idx_scheduled_sitting_bill', ['billId', 'scheduledFor'])
// one standing row per stage and date: a sync adds a date only when none stands for it
@Index('uq_scheduled_sitting_standing', ['billStageId', 'scheduledFor'], { unique: true, where: '"superseded_at" IS NULL' })
export class ScheduledSittingEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  billId: number;

  @ManyToOne(() => BillEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bill_id', foreignKeyConstraintName: 'fk_scheduled_sitting_bill' })
  bill?: BillEntity;

  /** Bills API bill-stage id (no key: a bill's stages are rewritten whole when it changes) */
  @Column({ type: 'integer' })
  billStageId: number;

  /** normalised stage name, e.g. second_reading */
  @Column({ type: 'text' })
  stage: string;

  @Column({ type: 'text' })
  house: House;

  @Column({ type: 'date' })
  scheduledFor: string;

  @Column({ type: 'timestamptz' })
  firstSeenAt: Date;

  /** the service's day when the sync first saw the date: "announced by" */
  @Column({ type: 'date' })
  firstSeenDay: string;

  /** when a sync saw the date gone from the stage before it came; null while it stands */
  @Column({ type: 'timestamptz', nullable: true })
  supersededAt: Date | null;

  /** the service's day of that sync: from then on the date no longer stands (the nowcast rule compares days) */
  @Column({ type: 'date', nullable: true })
  supersededDay: string | null;
}
