import type { DataSource } from 'typeorm';
import { type DataFreshness, SYNC_JOB } from '../ingest/freshness';
import type { Logger } from '../logger';
import { runClaimedPeriod } from './period-claim';
import { JobTicker } from './job-ticker';

const ADVISORY_LOCK_KEY = 74_110_020;
/** While syncs keep failing, the wait doubles up to this many intervals. */
export const MAX_BACKOFF_INTERVALS = 4;
/** A tick lands this long after its interval begins, so that clocks a little apart claim the same interval. */
const TICK_OFFSET_MS = 250;

export type SyncOutcome = 'synced' | 'failed' | 'claimed elsewhere';

export interface ScheduledSyncOptions {
  intervalSeconds: number;
  /** PostgreSQL: several instances share the database, and the interval is claimed under an advisory lock */
  postgres: boolean;
  now?: () => Date;
}

/**
 * Syncs the bill source every interval, once across all instances: each interval (aligned to the
 * clock, so instances tick together) is claimed in job_run, and only the instance that claims it
 * syncs. A failed sync leaves the stored data served as it was; the next try waits 2, then 4
 * intervals while it keeps failing. The log says when syncing starts failing and when it recovers,
 * not every failure.
 */
export class ScheduledSync {
  private readonly ticker = new JobTicker(
    () => this.runOnce(),
    (error) => this.logger.warn({ err: error }, 'scheduled sync could not claim its interval'),
    () => this.untilNextTry(),
  );
  private consecutiveFailures = 0;
  private readonly now: () => Date;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sync: () => Promise<unknown>,
    private readonly freshness: DataFreshness,
    private readonly logger: Logger,
    private readonly options: ScheduledSyncOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  private get intervalMs(): number {
    return this.options.intervalSeconds * 1000;
  }

  /** Intervals until the next try: 1, and 2, 4, 4, … after consecutive failures. */
  get backoffIntervals(): number {
    return Math.min(MAX_BACKOFF_INTERVALS, 2 ** this.consecutiveFailures);
  }

  /** Syncs now if this interval is not claimed yet; one run at a time. */
  runDue(): Promise<SyncOutcome> {
    return this.ticker.runDue();
  }

  start(): void {
    if (this.intervalMs > 0) this.ticker.start();
  }

  /** No more ticks; resolves once the sync under way, if any, has ended. */
  stop(): Promise<void> {
    return this.ticker.stop();
  }

  /** Until the start of the interval of the next try (a little after it). */
  private untilNextTry(): number {
    const now = this.now().getTime();
    return (Math.floor(now / this.intervalMs) + this.backoffIntervals) * this.intervalMs + TICK_OFFSET_MS - now;
  }

  private async runOnce(): Promise<SyncOutcome> {
    const now = this.now();
    const periodStart = new Date(Math.floor(now.getTime() / this.intervalMs) * this.intervalMs);
    let outcome: SyncOutcome = 'claimed elsewhere';
    await runClaimedPeriod(this.dataSource, { job: SYNC_JOB, advisoryLockKey: this.options.postgres ? ADVISORY_LOCK_KEY : null, periodStart, now }, async () => {
      this.freshness.started(now);
      const started = performance.now();
      try {
        await this.sync();
        outcome = 'synced';
      } catch (error) {
        outcome = 'failed';
        if (this.consecutiveFailures === 0) this.logger.warn({ err: error }, 'scheduled sync failed: the stored data is served as it was; retrying with backoff');
        this.consecutiveFailures += 1;
      }
      this.freshness.ended(outcome, (performance.now() - started) / 1000);
      if (outcome === 'synced') {
        this.freshness.succeeded(this.now());
        if (this.consecutiveFailures > 0) this.logger.info({ failedSyncs: this.consecutiveFailures }, 'scheduled sync recovered');
        this.consecutiveFailures = 0;
      }
    });
    return outcome;
  }
}
