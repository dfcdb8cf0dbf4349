import type { DataSource } from 'typeorm';
import { ModelVersionEntity } from '../../entities/model-version.entity';
import { FEATURE_SCHEMA_VERSION } from '../../model/features';
import { Predictor } from '../../model/predictor';
import type { TrainingOptions } from '../../model/train';
import type { ServiceClock } from '../clock';
import { AppError } from '../errors';
import { trainInWorker } from '../jobs/train-in-worker';
import type { Logger } from '../logger';
import type { Readiness } from '../readiness';
import { SyncStateEntity } from '../../entities/sync-state.entity';
import { loadTrainingData } from './training-data';

export const MODELS_LOADING = 'models loading';
const TRAINING_FAILED = 'model training failed (see the server log): run `npm run train` to retry';

export interface ModelVersionSummary {
  id: number;
  feature_schema_version: number;
  training_cutoff: string;
  data_fingerprint: string;
  created_at: string;
  metrics: Record<string, unknown>;
}

const summary = (v: ModelVersionEntity): ModelVersionSummary => ({
  id: v.id,
  feature_schema_version: v.featureSchemaVersion,
  training_cutoff: v.trainingCutoff,
  data_fingerprint: v.dataFingerprint,
  created_at: v.createdAt.toISOString(),
  metrics: v.metrics,
});

/**
 * Which trained model serves predictions. Versions live in the database; the newest one for the
 * code's feature schema is served, and a newer one (from `npm run train`, here or in another
 * process) replaces it without a restart. New data never retrains by itself.
 */
export class ModelService {
  private active: { version: ModelVersionSummary; predictor: Predictor } | null = null;
  private training: Promise<ModelVersionSummary> | null = null;
  private readonly listeners: Array<(version: ModelVersionSummary) => void> = [];
  private readonly stopping = new AbortController();

  constructor(
    private readonly dataSource: DataSource,
    private readonly readiness: Readiness,
    private readonly clock: ServiceClock,
    private readonly logger: Logger,
    /** test hook: smaller networks or fewer iterations */
    private readonly trainingOptions: Omit<TrainingOptions, 'cutoff' | 'onProgress'> = {},
  ) {}

  /** Called with each version that starts serving (prediction caches key on the version). */
  onSwitch(listener: (version: ModelVersionSummary) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Serves the newest stored version, or trains one in the background when there is none.
   * Safe to call again (each time data becomes ready): it does nothing while a version serves or trains.
   */
  async start(options: { trainIfMissing: boolean }): Promise<void> {
    if (this.training || (await this.refresh())) return;
    this.readiness.block('model', MODELS_LOADING);
    if (options.trainIfMissing && !this.training) {
      this.train().catch((error: Error) => {
        if (this.stopping.signal.aborted) return this.logger.info('training stopped by the shutdown');
        if (!this.active) this.readiness.block('model', TRAINING_FAILED);
        this.logger.error({ err: error }, 'training at start failed');
      });
    }
  }

  /** Switches to the newest stored version if it is not the one served; true when one is served. */
  async refresh(): Promise<boolean> {
    const latest = await this.dataSource.getRepository(ModelVersionEntity).findOne({
      select: { id: true },
      where: { featureSchemaVersion: FEATURE_SCHEMA_VERSION },
      order: { id: 'DESC' },
    });
    if (!latest) return this.active !== null;
    if (this.active?.version.id === latest.id) return true;
    const version = await this.dataSource.getRepository(ModelVersionEntity).findOneByOrFail({ id: latest.id });
    this.activate(version);
    return true;
  }

  private activate(version: ModelVersionEntity): void {
    const started = process.hrtime.bigint();
    const predictor = new Predictor(version.artifact);
    this.active = { version: summary(version), predictor };
    this.readiness.unblock('model');
    this.logger.info({ modelVersion: version.id, loadMs: Number(process.hrtime.bigint() - started) / 1e6 }, 'model version serving');
    for (const listener of this.listeners) listener(this.active.version);
  }

  /** Stops a training under way without saving it, and refuses new ones: the process is shutting down. */
  stop(): void {
    this.stopping.abort();
  }

  /** Resolves when no training is under way (shutdown waits for it: the worker writes nothing, the save does). */
  async idle(): Promise<void> {
    await this.training?.catch(() => undefined);
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
   * Trains a new version on everything stored, with facts up to the service's today, in a
   * worker thread; stores it and serves it. One training at a time: a second call joins the first.
   */
  train(): Promise<ModelVersionSummary> {
    this.training ??= this.trainOnce().finally(() => (this.training = null));
    return this.training;
  }

  private async trainOnce(): Promise<ModelVersionSummary> {
    const cutoff = this.clock.today();
    const [data, state] = await Promise.all([
      loadTrainingData(this.dataSource),
      this.dataSource.getRepository(SyncStateEntity).find({ order: { completedAt: 'DESC' }, take: 1 }),
    ]);
    if (!data.bills.length) throw new AppError('SERVICE_UNAVAILABLE', 'there are no bills to train on: run npm run sync first');
    this.logger.info({ cutoff, bills: data.bills.length }, 'training started');
    const { artifact, durationMs } = await trainInWorker(data, { ...this.trainingOptions, cutoff }, (message) => this.logger.info({ progress: message }, 'training'), this.stopping.signal);
    const saved = await this.dataSource.getRepository(ModelVersionEntity).save({
      featureSchemaVersion: artifact.featureSchemaVersion,
      trainingCutoff: cutoff,
      dataFingerprint: state[0]?.dataFingerprint ?? 'none',
      seed: artifact.seed,
      artifact,
      metrics: { trainingMs: durationMs, samples: artifact.sampleCounts, calibrationPeriod: artifact.calibrationPeriodMetrics },
    });
    this.logger.info({ modelVersion: saved.id, durationMs }, 'training finished');
    this.activate(saved);
    return summary(saved);
  }
}
