import type { DataSource } from 'typeorm';
import type { ModelVersionEntity } from '../db/entities/model-version.entity';
import { Predictor } from '../model/serve/predictor';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import type { Readiness } from '../health/readiness';
import { type ModelProvenance, VintageShelf } from './model-vintages';

// The model service's serving job: which model answers a date, looked up without a query on the
// request path. Training (model-training.ts, vintage-training.ts) and following other processes'
// promotions (model-promotions.ts) hand it the versions to serve; it never trains or polls.

export const MODELS_LOADING = 'models loading';

export interface ModelVersionSummary {
  id: number;
  feature_schema_version: number;
  training_cutoff: string;
  data_fingerprint: string;
  created_at: string;
  metrics: Record<string, unknown>;
}

export const summary = (v: ModelVersionEntity): ModelVersionSummary => ({
  id: v.id,
  feature_schema_version: v.featureSchemaVersion,
  training_cutoff: v.trainingCutoff,
  data_fingerprint: v.dataFingerprint,
  created_at: v.createdAt.toISOString(),
  metrics: v.metrics,
});

/**
 * The version served for today and the stored versions that answer past dates (vintages, earlier
 * serving versions). A version starts serving through activate(); listeners hear of it (prediction
 * caches key on the version).
 */
export class ServingModel {
  private active: { version: ModelVersionSummary; predictor: Predictor } | null = null;
  /** the versions that answer past dates (vintages and earlier serving versions) */
  readonly shelf: VintageShelf;
  private readonly listeners: Array<(version: ModelVersionSummary) => void> = [];

  constructor(
    dataSource: DataSource,
    private readonly readiness: Readiness,
    private readonly logger: Logger,
  ) {
    this.shelf = new VintageShelf(dataSource);
  }

  /** Called with each version that starts serving. */
  onSwitch(listener: (version: ModelVersionSummary) => void): void {
    this.listeners.push(listener);
  }

  /** Serves `version` for today from now on. */
  activate(version: ModelVersionEntity): void {
    const started = process.hrtime.bigint();
    const predictor = new Predictor(version.artifact);
    this.active = { version: summary(version), predictor };
    this.shelf.add({ id: version.id, trainingCutoff: version.trainingCutoff });
    this.readiness.unblock('model');
    this.logger.info({ modelVersion: version.id, loadMs: Number(process.hrtime.bigint() - started) / 1e6 }, 'model version serving');
    for (const listener of this.listeners) listener(this.active.version);
  }

  /** The predictor being served; 503 while none is ready. */
  predictor(): { predictor: Predictor; version: ModelVersionSummary } {
    if (!this.active) throw new AppError('SERVICE_UNAVAILABLE', `Service unavailable: ${MODELS_LOADING}`);
    return this.active;
  }

  activeVersion(): ModelVersionSummary | null {
    return this.active?.version ?? null;
  }

  /**
   * Which model answers a nowcast at `date`, without loading it (predictorOf loads it; a kept
   * answer's key needs only this): the serving one from its training cutoff on (today in
   * particular); before it, the newest stored version trained only on facts dated on or before
   * `date` (a session's vintage, an earlier serving version). With none that old, the serving one,
   * marked in sample. 503 while none serves.
   */
  provenanceFor(date: string): ModelProvenance {
    const { version } = this.predictor();
    const serving = (outOfSample: boolean): ModelProvenance => ({ version: version.id, trainedThrough: version.training_cutoff, outOfSample });
    if (date >= version.training_cutoff) return serving(true);
    const older = this.shelf.choose(date);
    return older ? { version: older.id, trainedThrough: older.trainingCutoff, outOfSample: true } : serving(false);
  }

  /** The predictor of the version a provenance names: the serving one, or a stored one read on first use. */
  async predictorOf(provenance: ModelProvenance): Promise<Predictor> {
    const { predictor, version } = this.predictor();
    return provenance.version === version.id ? predictor : this.shelf.predictor(provenance.version);
  }

  /** Changes whenever a version is stored or promoted: nowcasts computed under it stay right while it holds. */
  modelsState(): string {
    return `${this.active?.version.id ?? ''}:${this.shelf.generation()}`;
  }
}
