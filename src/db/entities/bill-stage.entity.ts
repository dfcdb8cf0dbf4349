import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { House, StagePhase } from '../../vocabulary';
import { BillEntity } from './bill.entity';

/** One stage of a bill's passage with every sitting date it had. */
@Entity('bill_stage')
@Index('idx_bill_stage_bill', ['billId', 'seq'])
@Index('idx_bill_stage_sitting_first_seen', ['sittingFirstSeenDay'])
// on the expression sitting_dates[1], which TypeORM cannot describe: built by its migration, left alone by schema sync
@Index('idx_bill_stage_first_sitting', { synchronize: false })
export class BillStageEntity {
  /** Bills API bill-stage id */
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  billId: number;

  @ManyToOne(() => BillEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bill_id', foreignKeyConstraintName: 'fk_bill_stage_bill' })
  bill?: BillEntity;

  /** the API's sort order, 1 = first */
  @Column({ type: 'integer' })
  seq: number;

  /** Bills API stage-type id */
  @Column({ type: 'integer' })
  stageId: number;

  /** normalised stage name, e.g. second_reading */
  @Column({ type: 'text' })
  stage: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'text', nullable: true })
  abbr: string | null;

  @Column({ type: 'text' })
  house: House;

  @Column({ type: 'integer', nullable: true })
  sessionId: number | null;

  @Column({ type: 'text', nullable: true })
  phase: StagePhase | null;

  /** sorted; empty when the stage never sat */
  @Column({ type: 'date', array: true })
  sittingDates: string[];

  /** dates after the stage's session ended (PMB set-down Fridays): they never happened */
  @Column({ type: 'date', array: true })
  datesAfterSessionEnd: string[];

  @Column({ type: 'boolean' })
  fromCurrentStage: boolean;

  /**
   * The service's day a sync first saw the record's first sitting date as it stands (the Bills API
   * often shows a sitting days after it happened): the refresh reports a stage seen late. Null
   * when the record has no sitting, or came with the first sync or before the service kept this.
   */
  @Column({ type: 'date', nullable: true })
  sittingFirstSeenDay: string | null;
}
