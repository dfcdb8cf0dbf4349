import { availableParallelism } from 'node:os';
import type { DataSource } from 'typeorm';
import { ModelVersionEntity, type ModelVersionStatus } from '../db/entities/model-version.entity';
import type { ModelArtifact } from '../model/serve/model-artifact';
import { FEATURE_SCHEMA_VERSION } from '../model/serve/features';
import { Predictor } from '../model/serve/predictor';
import type { TrainingOptions } from '../model/train/train';
import type { ServiceClock } from '../common/clock';
import { AppError } from '../errors';
import { scoreInWorker, trainInWorker } from './train-in-worker';
import { judgeChallenger, type ChallengeVerdict } from '../model/train/challenger';
import { markServed, servedVersionId } from './model-versions';
import type { Logger } from '../logger';
import type { Readiness } from '../health/readiness';
import { loadSessionFacts, readTrainingSet, type TrainingSet } from './training-data';
import type { TrainingPages } from './training-pages';
import { type ModelProvenance, plannedVintages, type VintagePlan, VintageShelf } from './model-vintages';
import { whileHoldingAdvisoryLock } from '../db/advisory-lock';

export const MODELS_LOADING = 'models loading';
/**
 * Worker threads for a training when nothing serves yet: one a core, up to three (beyond that the
 * Royal Assent ensemble, a third of the networks, bounds the time whatever the count).
 */
const FIRST_TRAINING_WORKERS = Math.min(3, availableParallelism());
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

/** The advisory lock class of vintage training; the second key is the vintage's cutoff in days since 1970. */
const VINTAGE_LOCK_CLASS = 74_110_030;

/** What `npm run train -- --vintages` (or a server's background run) trained. */
export interface VintageRun {
  trained: { id: number; session_id: number; training_cutoff: string; training_ms: number }[];
  /** sessions whose vintage was stored already */
  already: number;
  /** sessions whose vintage another instance was training (PostgreSQL): stored when it is done */
  elsewhere: number;
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
  /** the versions that answer past dates (vintages and earlier serving versions) */
  private readonly shelf: VintageShelf;
  private vintages: Promise<VintageRun> | null = null;
  private trainingAtStart: Promise<unknown> | null = null;
  /** stops the vintage in training (not the run) so that a serving model trains first */
  private vintageYield: AbortController | null = null;
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
    /** PostgreSQL: other instances may train the same vintages */
    private readonly sharedDatabase = false,
  ) {
    this.shelf = new VintageShelf(dataSource);
  }

  /** Called with each version that starts serving (prediction caches key on the version). */
  onSwitch(listener: (version: ModelVersionSummary) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Serves the newest stored version, or trains one in the background when there is none.
   * Safe to call again (each time data becomes ready): it does nothing while a version serves or trains.
   */
  async start(options: { trainIfMissing: boolean }): Promise<void> {
    if (this.stopping.signal.aborted || this.training || (await this.refresh())) return;
    // the shutdown may have begun while the stored versions were read: no training starts after it
    if (this.stopping.signal.aborted) return;
    this.readiness.block('model', MODELS_LOADING);
    if (options.trainIfMissing && !this.training) {
      // kept so that idle() waits for this log line too: nothing is logged after the shutdown's last line
      this.trainingAtStart = this.train().catch((error: Error) => {
        if (this.stopping.signal.aborted) return this.logger.info('training stopped by the shutdown');
        if (!this.active) this.readiness.block('model', TRAINING_FAILED);
        this.logger.error({ err: error }, 'training at start failed');
      });
    }
  }

  /** Switches to the version chosen to serve if it is not the one served; true when one is served. */
  async refresh(): Promise<boolean> {
    const [chosen] = await Promise.all([servedVersionId(this.dataSource), this.shelf.reload()]);
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
    this.shelf.add({ id: version.id, trainingCutoff: version.trainingCutoff });
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
    await this.trainingAtStart;
    await this.vintages?.catch(() => undefined);
  }

  /** Resolves when no serving model is training (vintages may go on training in the background). */
  async servingIdle(): Promise<void> {
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

  /**
   * Trains a new version on everything stored, with facts up to the service's today, in a
   * worker thread; stores it and serves it. One training at a time: a second call joins the first.
   */
  train(): Promise<ModelVersionSummary> {
    if (!this.training) this.vintageYield?.abort();
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
   * version on the same recent, resolved nowcasts (src/model/train/challenger.ts). It serves only if it is no
   * worse beyond the tolerance; otherwise it is kept as rejected, with its figures. With nothing
   * serving, it serves.
   */
  retrain(): Promise<RetrainOutcome> {
    if (this.training) return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'a training is already under way'));
    this.vintageYield?.abort();
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
    decide: (artifact: ModelArtifact, data: TrainingPages, asOf: string) => Promise<{ status: ModelVersionStatus; extra: Record<string, unknown> }>,
  ): Promise<{ saved: ModelVersionEntity }> {
    const cutoff = this.clock.today();
    const set = await this.trainingSet();
    if (!set.data.billCount) throw new AppError('SERVICE_UNAVAILABLE', 'there are no bills to train on: run npm run sync first');
    return this.trainAndSaveOn(set, cutoff, this.stopping.signal, decide);
  }

  /** The data to train on, as pages its worker parses, and the fingerprint of the data state they are, read together: a version records what it learned from. */
  private trainingSet(): Promise<TrainingSet> {
    return readTrainingSet(this.dataSource);
  }

  private async trainAndSaveOn(
    { data, fingerprint }: TrainingSet,
    cutoff: string,
    signal: AbortSignal,
    decide: (artifact: ModelArtifact, data: TrainingPages, asOf: string) => Promise<{ status: ModelVersionStatus; extra: Record<string, unknown> }>,
    /** set for a session's vintage, which never serves today: its log lines must not read as the serving model's */
    vintage?: { session_id: number; session: string | null },
  ): Promise<{ saved: ModelVersionEntity }> {
    // Nothing serves yet (a first start): every core trains, as no request is answered meanwhile.
    // Once a version serves, one worker trains, beside the requests.
    const workers = this.active ? 1 : FIRST_TRAINING_WORKERS;
    if (vintage) this.logger.info({ vintage, cutoff, bills: data.billCount, workers }, `vintage training started: session ${vintage.session ?? vintage.session_id}, on the facts through ${cutoff} (for past dates; today's model already serves)`);
    else this.logger.info({ cutoff, bills: data.billCount, workers }, 'training started');
    const { artifact, durationMs } = await this.trainer(data, { ...this.trainingOptions, cutoff }, (message) => this.logger.info({ progress: message }, 'training'), signal, workers);
    const { status, extra } = await decide(artifact, data, cutoff);
    const saved = await this.dataSource.getRepository(ModelVersionEntity).save({
      featureSchemaVersion: artifact.featureSchemaVersion,
      trainingCutoff: cutoff,
      dataFingerprint: fingerprint,
      seed: artifact.seed,
      artifact,
      status,
      // served from markServed, by database time, once the decision is made
      promotedAt: null,
      metrics: { trainingMs: durationMs, samples: artifact.sampleCounts, calibrationPeriod: artifact.calibrationPeriodMetrics, ...extra },
    });
    this.logger.info({ modelVersion: saved.id, durationMs, ...(vintage && { vintage }) }, vintage ? 'vintage training finished' : 'training finished');
    return { saved };
  }

  /**
   * Trains the vintage of every session that has none (plannedVintages), newest session first,
   * one at a time in the worker thread, after the serving model: a serving training asked
   * meanwhile stops the vintage under way, which starts again once it is done. Each is stored as
   * an accepted version that never serves today (it is not promoted); past dates use it as soon as
   * it is saved. One run at a time: a second call joins the first.
   */
  trainVintages(): Promise<VintageRun> {
    this.vintages ??= this.trainVintagesOnce().finally(() => (this.vintages = null));
    return this.vintages;
  }

  private async trainVintagesOnce(): Promise<VintageRun> {
    await this.servingIdle();
    const [sessions, stored] = await Promise.all([loadSessionFacts(this.dataSource), this.storedVintageCutoffs()]);
    const plans = plannedVintages(sessions, this.clock.today());
    const missing = plans.filter((plan) => !stored.has(plan.cutoff));
    const run: VintageRun = { trained: [], already: plans.length - missing.length, elsewhere: 0 };
    if (!missing.length) return run;
    const training = { set: await this.trainingSet() };
    for (const plan of missing) {
      const outcome = await this.byOneInstance(plan, async () => {
        // another instance (PostgreSQL) may have stored it meanwhile
        if ((await this.storedVintageCutoffs()).has(plan.cutoff)) return null;
        return this.trainVintageGivingWay(training, plan);
      });
      if (!outcome.held) run.elsewhere += 1;
      else if (outcome.result) run.trained.push(outcome.result);
      else run.already += 1;
    }
    return run;
  }

  /**
   * On PostgreSQL, several instances share the stored versions: a session's vintage is trained by
   * the one that holds its advisory lock, and the others go on to the next session (they load it
   * when it is stored). One instance serves an embedded database: no lock is needed.
   */
  private byOneInstance<T>(plan: VintagePlan, work: () => Promise<T>): Promise<{ held: true; result: T } | { held: false }> {
    return whileHoldingAdvisoryLock(this.dataSource, this.sharedDatabase ? [VINTAGE_LOCK_CLASS, Date.parse(plan.cutoff) / 86_400_000] : null, work);
  }

  /** Trains a vintage; a serving training asked meanwhile stops it, and it starts again after that one, on the data it came with. */
  private async trainVintageGivingWay(training: { set: TrainingSet }, plan: VintagePlan): Promise<VintageRun['trained'][number]> {
    for (;;) {
      if (this.stopping.signal.aborted) throw new Error('training was stopped');
      await this.servingIdle();
      const yieldTo = (this.vintageYield = new AbortController());
      try {
        return await this.trainVintage(training.set, plan, AbortSignal.any([this.stopping.signal, yieldTo.signal]));
      } catch (error) {
        if (!yieldTo.signal.aborted || this.stopping.signal.aborted) throw error;
        this.logger.info({ session: plan.sessionId }, 'vintage training paused for a serving model: it starts again after it');
        await this.servingIdle();
        training.set = await this.trainingSet();
      } finally {
        if (this.vintageYield === yieldTo) this.vintageYield = null;
      }
    }
  }

  private async storedVintageCutoffs(): Promise<Set<string>> {
    const rows = (await this.dataSource.query(`SELECT training_cutoff::text AS cutoff FROM model_version WHERE feature_schema_version = $1 AND metrics -> 'vintage' IS NOT NULL`, [FEATURE_SCHEMA_VERSION])) as { cutoff: string }[];
    return new Set(rows.map((r) => r.cutoff));
  }

  private async trainVintage(set: TrainingSet, plan: VintagePlan, signal: AbortSignal): Promise<VintageRun['trained'][number]> {
    const named = (await this.dataSource.query(`SELECT name FROM parliamentary_session WHERE id = $1`, [plan.sessionId])) as { name: string }[];
    const vintage = { session_id: plan.sessionId, session: named[0]?.name ?? null };
    const { saved } = await this.trainAndSaveOn(set, plan.cutoff, signal, async () => ({ status: 'accepted', extra: { vintage: { session_id: plan.sessionId } } }), vintage);
    this.shelf.add({ id: saved.id, trainingCutoff: saved.trainingCutoff });
    this.logger.info({ modelVersion: saved.id, session: plan.sessionId, cutoff: plan.cutoff }, 'vintage stored: it answers dates of its session');
    return { id: saved.id, session_id: plan.sessionId, training_cutoff: plan.cutoff, training_ms: (saved.metrics.trainingMs as number) ?? 0 };
  }
}
