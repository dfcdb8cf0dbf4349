import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A bill's headline nowcast as seen by an alert check, kept when it differs from the last: what trend and spike compare. */
@Entity('prediction_snapshot')
@Index('idx_prediction_snapshot_bill', ['billId', 'id'])
@Index('idx_prediction_snapshot_bill_date', ['billId', 'referenceDate', 'id'])
export class PredictionSnapshotEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  billId: number;

  @Column({ type: 'date' })
  referenceDate: string;

  @Column({ type: 'integer' })
  modelVersion: number;

  @Column({ type: 'double precision' })
  royalAssent: number;

  @Column({ type: 'double precision' })
  nextStage30d: number;

  @Column({ type: 'double precision', nullable: true })
  timelineEtaDays: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  takenAt: Date;
}
