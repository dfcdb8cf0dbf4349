import { availableParallelism } from 'node:os';
import type { DataSource } from 'typeorm';
import { ModelVersionEntity, type ModelVersionStatus } from '../db/entities/model-version.entity';
import type { ModelArtifact } from '../model/serve/model-artifact';
import type { TrainingOptions } from '../model/train/train';
import type { ServiceClock } from '../common/clock';
import { AppError } from '../errors';
import { scoreInWorker, trainInWorker } from './train-in-worker';
import { judgeChallenger, type ChallengeVerdict } from '../model/train/challenger';
import { markServed } from './model-versions';
import type { Logger } from '../logger';
import { readTrainingSet, type TrainingSet } from './training-data';
import type { TrainingPages } from './training-pages';
import { summary, type ModelVersionSummary, type ServingModel } from './model-serving';

// The model service's training job: a serving model trained in worker threads (at a first start,
// by `npm run train`), and the scheduled retrain whose challenger serves only if it scores no worse
// than the serving version. Vintages (vintage-training.ts) train through trainAndStore too.

/**
 * Worker threads for a training when nothing serves yet: one a core, up to three (beyond that the
 * Royal Assent ensemble, a third of the networks, bounds the time whatever the count).
 */
const FIRST_TRAINING_WORKERS = Math.min(3, availableParallelism());

/** Trains a version (a worker thread in production; a test swaps in a degraded trainer). */
export type Trainer = typeof trainInWorker;

/** What a scheduled retrain did with the version it trained. */
export interface RetrainOutcome {
  version: ModelVersionSummary;
  promoted: boolean;
  verdict: ChallengeVerdict | null;
}

/** Decides what becomes of a trained artifact: stored as accepted or rejected, with figures of its own. */
export type Decision = (artifact: ModelArtifact, data: TrainingPages, asOf: string) => Promise<{ status: ModelVersionStatus; extra: Record<string, unknown> }>;

export interface TrainingDeps {
  dataSource: DataSource;
  clock: ServiceClock;
  logger: Logger;
  serving: ServingModel;
  /** test hook: smaller networks or fewer iterations */
  trainingOptions: Omit<TrainingOptions, 'cutoff' | 'onProgress'>;
  trainer: Trainer;
  /** aborted when the process shuts down: a training under way stops without saving */
  stopping: AbortSignal;
}

/**
 * Trains `set` through `cutoff` in worker threads, lets `decide` judge the artifact, and stores it
 * as a version (not promoted: the caller promotes it, or not).
 */
export async function trainAndStore(
  deps: TrainingDeps,
  { data, fingerprint }: TrainingSet,
  cutoff: string,
  signal: AbortSignal,
  decide: Decision,
  /** set for a session's vintage, which never serves today: its log lines must not read as the serving model's */
  vintage?: { session_id: number; session: string | null },
): Promise<ModelVersionEntity> {
  const { logger } = deps;
  // Nothing serves yet (a first start): every core trains, as no request is answered meanwhile.
  // Once a version serves, one worker trains, beside the requests.
  const workers = deps.serving.activeVersion() ? 1 : FIRST_TRAINING_WORKERS;
  if (vintage) logger.info({ vintage, cutoff, bills: data.billCount, workers }, `vintage training started: session ${vintage.session ?? vintage.session_id}, on the facts through ${cutoff} (for past dates; today's model already serves)`);
  else logger.info({ cutoff, bills: data.billCount, workers }, 'training started');
  const { artifact, durationMs } = await deps.trainer(data, { ...deps.trainingOptions, cutoff }, (message) => logger.info({ progress: message }, 'training'), signal, workers);
  const { status, extra } = await decide(artifact, data, cutoff);
  const saved = await deps.dataSource.getRepository(ModelVersionEntity).save({
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
  logger.info({ modelVersion: saved.id, durationMs, ...(vintage && { vintage }) }, vintage ? 'vintage training finished' : 'training finished');
  return saved;
}

/**
 * The serving model's trainings, one at a time: train() and retrain(). A background training
 * (a vintage) that must give way to them registers through givingWay(): asking for a serving
 * model stops it, and it starts again once servingIdle() resolves.
 */
export class ModelTraining {
  private training: Promise<ModelVersionSummary> | null = null;
  private readonly givingWayNow = new Set<AbortController>();

  constructor(private readonly deps: TrainingDeps) {}

  /** Resolves when no serving model is training. */
  async servingIdle(): Promise<void> {
    await this.training?.catch(() => undefined);
  }

  /** Whether a serving model is training now. */
  underWay(): boolean {
    return this.training !== null;
  }

  /** A signal that aborts when a serving model is asked for; release() it when the training it stops ends. */
  givingWay(): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    this.givingWayNow.add(controller);
    return { signal: controller.signal, release: () => this.givingWayNow.delete(controller) };
  }

  private makeWay(): void {
    for (const controller of this.givingWayNow) controller.abort();
  }

  /**
   * Trains a new version on everything stored, with facts up to the service's today, in a
   * worker thread; stores it and serves it. One training at a time: a second call joins the first.
   */
  train(): Promise<ModelVersionSummary> {
    if (!this.training) this.makeWay();
    this.training ??= this.trainOnce().finally(() => (this.training = null));
    return this.training;
  }

  private async trainOnce(): Promise<ModelVersionSummary> {
    const saved = await this.trainOnEverything(async () => ({ status: 'accepted', extra: {} }));
    await markServed(this.deps.dataSource, saved.id);
    this.deps.serving.activate(saved);
    return summary(saved);
  }

  /**
   * A scheduled retrain: trains a challenger as train() does, then scores its trial and the serving
   * version on the same recent nowcasts resolved since the serving version's cutoff, and the
   * challenger against its trial on every outcome resolved (src/model/train/challenger.ts). It
   * serves only if no judged check finds it worse beyond the tolerance; otherwise it is kept as
   * rejected, with its figures. With nothing serving, it serves.
   */
  retrain(): Promise<RetrainOutcome> {
    if (this.training) return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'a training is already under way'));
    this.makeWay();
    const run = this.retrainOnce().finally(() => (this.training = null));
    // shutdown (idle) waits for it, and a `train` asked meanwhile joins it; its failure is the caller's to report
    this.training = run.then((r) => r.version);
    this.training.catch(() => undefined);
    return run;
  }

  private async retrainOnce(): Promise<RetrainOutcome> {
    const { dataSource, serving, logger, stopping } = this.deps;
    const judged: { verdict: ChallengeVerdict | null } = { verdict: null };
    const saved = await this.trainOnEverything(async (artifact, data, asOf) => {
      const active = serving.activeVersion() && serving.predictor();
      if (!active) return { status: 'accepted', extra: {} };
      const trial = await this.trial(data, active.predictor.artifact.cutoff, artifact);
      // in one worker, which reads the data once: the trial against the serving version, and the version
      // that would serve against its trial (the serving version when the trial is itself), so a failed fit of today's training never serves
      const reference = trial === artifact ? active.predictor.artifact : trial;
      const [[challengerScores, servingScores], sanity] = await scoreInWorker(data, [{ artifacts: [trial, active.predictor.artifact] }, { artifacts: [artifact, reference], everyOutcome: true }], asOf, stopping);
      const verdict = (judged.verdict = judgeChallenger({ judged: challengerScores, against: servingScores }, { judged: sanity[0], against: sanity[1] }));
      return { status: verdict.promote ? 'accepted' : 'rejected', extra: { challenge: { against: active.version.id, as_of: asOf, trial_cutoff: trial.cutoff, promoted: verdict.promote, checks: verdict.checks, challenger_scores: challengerScores, serving_scores: servingScores } } };
    });
    const promoted = judged.verdict?.promote ?? true;
    if (promoted) {
      await markServed(dataSource, saved.id);
      serving.activate(saved);
    }
    const failedChecks = judged.verdict?.checks.filter((c) => !c.passed) ?? [];
    logger.info({ modelVersion: saved.id, promoted, failedChecks }, promoted ? 'retrained model serves' : 'retrained model rejected: a check found it worse (its trial than the serving version, or it than its trial)');
    return { version: summary(saved), promoted, verdict: judged.verdict };
  }

  /**
   * The challenger as it is judged: the same training on the facts up to the serving version's
   * cutoff, so that both are scored only on outcomes resolved after either trained
   * (scoreOnRecentOutcomes). The challenger itself learned every outcome known today; scored on
   * them it would beat any serving version. Against a version trained on today's facts there is no
   * outcome left to score on: the challenger itself is returned and every check passes.
   */
  private async trial(data: TrainingPages, servingCutoff: string, challenger: ModelArtifact): Promise<ModelArtifact> {
    if (servingCutoff >= challenger.cutoff) return challenger;
    const { logger, trainingOptions, trainer, stopping } = this.deps;
    logger.info({ cutoff: servingCutoff }, 'training the challenger on the serving version\'s facts, to judge it on outcomes neither has seen');
    return (await trainer(data, { ...trainingOptions, cutoff: servingCutoff }, (message) => logger.info({ progress: message }, 'training'), stopping, 1)).artifact;
  }

  /** Trains on everything stored, with facts up to the service's today. */
  private async trainOnEverything(decide: Decision): Promise<ModelVersionEntity> {
    const cutoff = this.deps.clock.today();
    // the data to train on and the fingerprint of the data state it is, read together: a version records what it learned from
    const set = await readTrainingSet(this.deps.dataSource);
    if (!set.data.billCount) throw new AppError('SERVICE_UNAVAILABLE', 'there are no bills to train on: run npm run sync first');
    return trainAndStore(this.deps, set, cutoff, this.deps.stopping, decide);
  }
}
