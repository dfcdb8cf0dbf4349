import type { DataSource } from 'typeorm';
import { isConnectionFailure } from '../common/connection-failure';
import type { Logger } from '../logger';
import type { RetentionRule } from './retention-rule';
import { retentionRules } from './retention-rules';
import { runClaimedPeriod, startOfHour } from './period-claim';
import { JobTicker } from './job-ticker';

const JOB = 'retention';
const ADVISORY_LOCK_KEY = 74_110_003;
/**
 * Rows one delete may remove. On the embedded database one statement runs at a time and requests
 * wait behind it: a bounded delete takes tens of milliseconds, and the requests queued meanwhile
 * run before the next one (the session pool is first come, first served).
 */
export const RETENTION_BATCH_ROWS = 10_000;

export interface RetentionRun {
  ran: boolean;
  hour: string;
  /** rows removed per table */
  removed: Record<string, number>;
  /** deletes run (statements), across every table */
  statements: number;
  ms: number;
}

export interface RetentionOptions {
  postgres: boolean;
  /** RETENTION_DAYS: how long finished webhook deliveries, the event log and older snapshots are kept */
  retentionDays: number;
  /** the service's day (its clock's today): snapshots the refresh reads up to it are kept */
  serviceDay: () => string;
  now?: () => Date;
  batchRows?: number;
}

/**
 * Removes what no reader needs any more (src/jobs/retention-rules.ts says what and why), once an
 * hour. With several instances on PostgreSQL only one runs each hour: the hour is claimed in
 * job_run while holding an advisory lock, as the hourly alert check does. A shutdown stops it
 * between two deletes; the next hour carries on.
 */
export class RetentionJob {
  private readonly rules: RetentionRule[];
  private readonly ticker = new JobTicker(
    () => this.runOnce(),
    (error) => isConnectionFailure(error) || this.logger.error({ err: error }, 'retention failed'),
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
    private readonly options: RetentionOptions,
  ) {
    this.rules = retentionRules(options.retentionDays, options.serviceDay);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Runs the job if this hour has not been run by anyone yet. */
  runDue(): Promise<RetentionRun> {
    return this.ticker.runDue();
  }

  private async runOnce(): Promise<RetentionRun> {
    const started = performance.now();
    const now = this.now();
    const result: RetentionRun = { ran: false, hour: startOfHour(now).toISOString(), removed: {}, statements: 0, ms: 0 };
    if (this.ticker.stopping) return result;
    await runClaimedPeriod(this.dataSource, { job: JOB, advisoryLockKey: this.options.postgres ? ADVISORY_LOCK_KEY : null, periodStart: startOfHour(now), now }, async () => {
      result.ran = true;
      const limit = this.options.batchRows ?? RETENTION_BATCH_ROWS;
      for (const rule of this.rules) {
        result.removed[rule.table] = 0;
        for await (const count of rule.batches(this.dataSource, now, limit)) {
          result.removed[rule.table] += count;
          result.statements++;
          if (this.ticker.stopping) break;
          // no turn of the event loop is taken here: each delete's answer arrives in one of its own (PostgreSQL's over its socket, PGlite's by its session pool)
        }
        if (this.ticker.stopping) break;
      }
      result.ms = Math.round(performance.now() - started);
      this.logger.info({ removed: result.removed, statements: result.statements, ms: result.ms, retentionDays: this.options.retentionDays }, 'retention');
    });
    return result;
  }

  start(): void {
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }
}
