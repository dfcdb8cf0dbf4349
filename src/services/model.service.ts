import type { DataSource } from 'typeorm';
import { ModelVersionEntity, type ModelVersionStatus } from '../../entities/model-version.entity';
import type { ModelArtifact } from '../../model/model-artifact';
import { FEATURE_SCHEMA_VERSION } from '../../model/features';
import { Predictor } from '../../model/predictor';
import type { TrainingData, TrainingOptions } from '../../model/train';
import type { ServiceClock } from '../clock';
import { AppError } from '../errors';
import { scoreInWorker, trainInWorker } from '../jobs/train-in-worker';
import { judgeChallenger, type ChallengeVerdict } from '../../model/challenger';
import { markServed, servedVersionId } from './model-versions';
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

/** Trains a version (a worker thread in production; a test swaps in a degraded trainer). */
export type Trainer = typeof trainInWorker;

/** What a scheduled retrain did with the version it trained. */
export interface RetrainOutcome {
  version: ModelVersionSummary;
  promoted: boolean;
  verdict: ChallengeVerdict | null;
}

/**
 * Which trained model serves predictions. Versions live in the database; the accepted one of the
 * code's feature schema promoted last is served (model-versions.ts), and a change of it (from
 * `npm run train`, a scheduled retrain or `npm run admin -- promote`, here or in another process)
 * is served without a restart. New data alone never retrains: the retrain schedule does.
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
    private readonly trainer: Trainer = trainInWorker,
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

  /** Switches to the version chosen to serve if it is not the one served; true when one is served. */
  async refresh(): Promise<boolean> {
    const chosen = await servedVersionId(this.dataSource);
    if (chosen === null) return this.active !== null;
    if (this.active?.version.id === chosen) return true;
    const version = await this.dataSource.getRepository(ModelVersionEntity).findOneByOrFail({ id: chosen, featureSchemaVersion: FEATURE_SCHEMA_VERSION });
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
    const { saved } = await this.trainAndSave(async () => ({ status: 'accepted', extra: {} }));
    await markServed(this.dataSource, saved.id);
    this.activate(saved);
    return summary(saved);
  }

  /**
   * A scheduled retrain: trains a challenger as train() does, then scores it and the serving
   * version on the same recent, resolved nowcasts (model/challenger.ts). It serves only if it is no
   * worse beyond the tolerance; otherwise it is kept as rejected, with its figures. With nothing
   * serving, it serves.
   */
  retrain(): Promise<RetrainOutcome> {
    if (this.training) return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'a training is already under way'));
    const run = this.retrainOnce().finally(() => (this.training = null));
    // shutdown (idle) waits for it, and a `train` asked meanwhile joins it; its failure is the caller's to report
    this.training = run.then((r) => r.version);
    this.training.catch(() => undefined);
    return run;
  }

  private async retrainOnce(): Promise<RetrainOutcome> {
    const judged: { verdict: ChallengeVerdict | null } = { verdict: null };
    const { saved } = await this.trainAndSave(async (artifact, data, asOf) => {
      const serving = this.active;
      if (!serving) return { status: 'accepted', extra: {} };
      // in the worker too: scoring the history takes a second or more of CPU
      const [challengerScores, servingScores] = await scoreInWorker(data, [artifact, serving.predictor.artifact], asOf, this.stopping.signal);
      const verdict = (judged.verdict = judgeChallenger(challengerScores, servingScores));
      return { status: verdict.promote ? 'accepted' : 'rejected', extra: { challenge: { against: serving.version.id, as_of: asOf, promoted: verdict.promote, checks: verdict.checks, challenger_scores: challengerScores, serving_scores: servingScores } } };
    });
    const promoted = judged.verdict?.promote ?? true;
    if (promoted) {
      await markServed(this.dataSource, saved.id);
      this.activate(saved);
    }
    const failedChecks = judged.verdict?.checks.filter((c) => !c.passed) ?? [];
    this.logger.info({ modelVersion: saved.id, promoted, failedChecks }, promoted ? 'retrained model serves' : 'retrained model rejected: it scored worse than the serving version');
    return { version: summary(saved), promoted, verdict: judged.verdict };
  }

  private async trainAndSave(
    decide: (artifact: ModelArtifact, data: TrainingData, asOf: string) => Promise<{ status: ModelVersionStatus; extra: Record<string, unknown> }>,
  ): Promise<{ saved: ModelVersionEntity }> {
    const cutoff = this.clock.today();
    const [data, state] = await Promise.all([
      loadTrainingData(this.dataSource),
      this.dataSource.getRepository(SyncStateEntity).find({ order: { completedAt: 'DESC' }, take: 1 }),
    ]);
    if (!data.bills.length) throw new AppError('SERVICE_UNAVAILABLE', 'there are no bills to train on: run npm run sync first');
    this.logger.info({ cutoff, bills: data.bills.length }, 'training started');
    const { artifact, durationMs } = await this.trainer(data, { ...this.trainingOptions, cutoff }, (message) => this.logger.info({ progress: message }, 'training'), this.stopping.signal);
    const { status, extra } = await decide(artifact, data, cutoff);
    const saved = await this.dataSource.getRepository(ModelVersionEntity).save({
      featureSchemaVersion: artifact.featureSchemaVersion,
      trainingCutoff: cutoff,
      dataFingerprint: state[0]?.dataFingerprint ?? 'none',
      seed: artifact.seed,
      artifact,
      status,
      // served from markServed, by database time, once the decision is made
      promotedAt: null,
      metrics: { trainingMs: durationMs, samples: artifact.sampleCounts, calibrationPeriod: artifact.calibrationPeriodMetrics, ...extra },
    });
    this.logger.info({ modelVersion: saved.id, durationMs }, 'training finished');
    return { saved };
  }
}
