import type { DataSource } from 'typeorm';
import { FEATURE_SCHEMA_VERSION } from '../model/serve/features';
import { whileHoldingAdvisoryLock } from '../db/advisory-lock';
import { loadSessionFacts, readTrainingSet, type TrainingSet } from './training-data';
import { plannedVintages, type VintagePlan } from './model-vintages';
import { type ModelTraining, trainAndStore, type TrainingDeps } from './model-training';

// The model service's vintage job: the point-in-time model of every past session, trained in the
// background after the serving model and giving way to it, so that past dates are answered out of sample.

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

export class VintageTraining {
  private vintages: Promise<VintageRun> | null = null;

  constructor(
    private readonly deps: TrainingDeps,
    private readonly serving: ModelTraining,
    /** PostgreSQL: other instances may train the same vintages */
    private readonly sharedDatabase: boolean,
  ) {}

  /** Resolves when no vintage run is under way. */
  async idle(): Promise<void> {
    await this.vintages?.catch(() => undefined);
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
    const { dataSource, clock } = this.deps;
    await this.serving.servingIdle();
    const [sessions, stored] = await Promise.all([loadSessionFacts(dataSource), storedVintageCutoffs(dataSource)]);
    const plans = plannedVintages(sessions, clock.today());
    const missing = plans.filter((plan) => !stored.has(plan.cutoff));
    const run: VintageRun = { trained: [], already: plans.length - missing.length, elsewhere: 0 };
    if (!missing.length) return run;
    const training = { set: await readTrainingSet(dataSource) };
    for (const plan of missing) {
      const outcome = await this.byOneInstance(plan, async () => {
        // another instance (PostgreSQL) may have stored it meanwhile
        if ((await storedVintageCutoffs(dataSource)).has(plan.cutoff)) return null;
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
    return whileHoldingAdvisoryLock(this.deps.dataSource, this.sharedDatabase ? [VINTAGE_LOCK_CLASS, Date.parse(plan.cutoff) / 86_400_000] : null, work);
  }

  /** Trains a vintage; a serving training asked meanwhile stops it, and it starts again after that one, on the data it came with. */
  private async trainVintageGivingWay(training: { set: TrainingSet }, plan: VintagePlan): Promise<VintageRun['trained'][number]> {
    const { stopping, logger, dataSource } = this.deps;
    for (;;) {
      if (stopping.aborted) throw new Error('training was stopped');
      await this.serving.servingIdle();
      const yieldTo = this.serving.givingWay();
      try {
        return await this.trainVintage(training.set, plan, AbortSignal.any([stopping, yieldTo.signal]));
      } catch (error) {
        if (!yieldTo.signal.aborted || stopping.aborted) throw error;
        logger.info({ session: plan.sessionId }, 'vintage training paused for a serving model: it starts again after it');
        await this.serving.servingIdle();
        training.set = await readTrainingSet(dataSource);
      } finally {
        yieldTo.release();
      }
    }
  }

  private async trainVintage(set: TrainingSet, plan: VintagePlan, signal: AbortSignal): Promise<VintageRun['trained'][number]> {
    const { dataSource, serving, logger } = this.deps;
    const named = (await dataSource.query(`SELECT name FROM parliamentary_session WHERE id = $1`, [plan.sessionId])) as { name: string }[];
    const vintage = { session_id: plan.sessionId, session: named[0]?.name ?? null };
    const saved = await trainAndStore(this.deps, set, plan.cutoff, signal, async () => ({ status: 'accepted', extra: { vintage: { session_id: plan.sessionId } } }), vintage);
    serving.shelf.add({ id: saved.id, trainingCutoff: saved.trainingCutoff });
    logger.info({ modelVersion: saved.id, session: plan.sessionId, cutoff: plan.cutoff }, 'vintage stored: it answers dates of its session');
    return { id: saved.id, session_id: plan.sessionId, training_cutoff: plan.cutoff, training_ms: (saved.metrics.trainingMs as number) ?? 0 };
  }
}

async function storedVintageCutoffs(dataSource: DataSource): Promise<Set<string>> {
  const rows = (await dataSource.query(`SELECT training_cutoff::text AS cutoff FROM model_version WHERE feature_schema_version = $1 AND metrics -> 'vintage' IS NOT NULL`, [FEATURE_SCHEMA_VERSION])) as { cutoff: string }[];
  return new Set(rows.map((r) => r.cutoff));
}
