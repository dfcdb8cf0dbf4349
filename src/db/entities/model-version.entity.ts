import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ModelArtifact } from '../../model/serve/model-artifact';

export type ModelVersionStatus = 'accepted' | 'rejected';

/** A trained model: weights, calibration and calendar (the artifact) with what it was trained on and how it scored. */
@Entity('model_version')
@Index('idx_model_version_schema', ['featureSchemaVersion', 'id'])
export class ModelVersionEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  featureSchemaVersion: number;

  /** the last date whose facts it learned from */
  @Column({ type: 'date' })
  trainingCutoff: string;

  /** the data fingerprint (sync state) it was trained on */
  @Column({ type: 'text' })
  dataFingerprint: string;

  @Column({ type: 'integer' })
  seed: number;

  @Column({ type: 'jsonb' })
  artifact: ModelArtifact;

  /** training time, sample counts, and AUC and Brier on the calibration period; the evaluation on held-out sessions is docs/model-card.md */
  @Column({ type: 'jsonb' })
  metrics: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  /** 'accepted' may serve; 'rejected' (a retrain that scored worse than the serving version) never does unless an operator promotes it */
  @Column({ type: 'text', default: 'accepted' })
  status: ModelVersionStatus;

  /** when it was last chosen to serve (database time); the accepted version promoted last serves, on every instance. Null: never served. */
  @Column({ type: 'timestamptz', nullable: true, default: () => 'now()' })
  promotedAt: Date | null;
}
