import type { DataSource } from 'typeorm';
import type { Logger } from '../logger';
import type { ModelService, RetrainOutcome } from '../services/model.service';
import { runClaimedPeriod } from './period-claim';
import { JobTicker } from './job-ticker';

const ADVISORY_LOCK_KEY = 74_110_022;
export const RETRAIN_JOB = 'retrain';
const DAY_MS = 86_400_000;
/** How often an instance looks whether a retrain period has begun (a timer cannot wait 30 days). */
const LOOK_EVERY_MS = 3_600_000;

export type RetrainRun = 'promoted' | 'rejected' | 'failed' | 'not due' | 'claimed elsewhere';

export interface ScheduledRetrainOptions {
  intervalDays: number;
  /** PostgreSQL: several instances share the database, and the period is claimed under an advisory lock */
  postgres: boolean;
  now?: () => Date;
}

/**
 * Retrains the model every RETRAIN_INTERVAL_DAYS, once across all instances: each period (aligned
 * to the epoch, so instances agree) is claimed in job_run, and only the instance that claims it
 * trains, in its worker thread. A period is not due while the serving version was made during it
 * (a first start has just trained one). The service decides whether the new version serves
 * (ModelService.retrain: champion/challenger); other instances follow through the stored choice.
 */
export class ScheduledRetrain {
  private readonly ticker = new JobTicker(
    () => this.runOnce(),
    (error) => this.logger.warn({ err: error }, 'scheduled retrain could not claim its period'),
    () => LOOK_EVERY_MS,
  );
  private readonly now: () => Date;

  constructor(
    private readonly dataSource: DataSource,
    private readonly models: Pick<ModelService, 'retrain' | 'activeVersion'>,
    private readonly logger: Logger,
    private readonly options: ScheduledRetrainOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  private get periodMs(): number {
    return this.options.intervalDays * DAY_MS;
  }

  start(): void {
    if (this.periodMs > 0) this.ticker.start(0);
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  /** Retrains now if this period is due and not claimed yet; one run at a time. */
  runDue(): Promise<RetrainRun> {
    return this.ticker.runDue();
  }

  private async runOnce(): Promise<RetrainRun> {
    if (this.ticker.stopping) return 'not due';
    const now = this.now();
    const periodStart = new Date(Math.floor(now.getTime() / this.periodMs) * this.periodMs);
    const serving = this.models.activeVersion();
    if (!serving || new Date(serving.created_at) >= periodStart) return 'not due';
    let outcome: RetrainRun = 'claimed elsewhere';
    await runClaimedPeriod(this.dataSource, { job: RETRAIN_JOB, advisoryLockKey: this.options.postgres ? ADVISORY_LOCK_KEY : null, periodStart, now }, async () => {
      try {
        const result: RetrainOutcome = await this.models.retrain();
        outcome = result.promoted ? 'promoted' : 'rejected';
      } catch (error) {
        outcome = 'failed';
        // the serving version keeps serving; the next period tries again
        if (!this.ticker.stopping) this.logger.error({ err: error }, 'scheduled retrain failed: the serving model version stays');
      }
    });
    return outcome;
  }
}
