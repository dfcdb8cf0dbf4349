import type { DataSource } from 'typeorm';
import type { Logger } from '../logger';
import { isConnectionFailure } from '../common/connection-failure';
import type { QuotaService } from '../quota/quota.service';
import type { AlertEvaluation } from '../services/alert-evaluation';
import { runClaimedPeriod, startOfHour } from './period-claim';
import { JobTicker } from './job-ticker';

const JOB = 'pro-alert-check';
const ADVISORY_LOCK_KEY = 74_110_002;

export interface HourlyRun {
  ran: boolean;
  hour: string;
  accounts: number;
  triggered: number;
  /** bills left unevaluated because their account's daily prediction limit was reached */
  blocked: number;
}

/**
 * Checks the alert thresholds of every Pro account once an hour. With several instances on
 * PostgreSQL only one runs each hour: the hour is claimed in job_run (an atomic upsert that
 * only succeeds for a later hour) while holding an advisory lock. The clock is injected so
 * tests can move through hours.
 */
export class HourlyAlertCheck {
  private readonly ticker = new JobTicker(
    () => this.runOnce(),
    (error) => isConnectionFailure(error) || this.logger.error({ err: error }, 'hourly alert check failed'),
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly alertEvaluation: AlertEvaluation,
    /** each bill a check evaluates is one of the account's predictions for the day */
    private readonly quotas: QuotaService,
    private readonly logger: Logger,
    private readonly options: { postgres: boolean; now?: () => Date; /** the day the check evaluates (its log line says it) */ serviceDay?: () => string },
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Runs the check if this hour has not been run by anyone yet. */
  runDue(): Promise<HourlyRun> {
    return this.ticker.runDue();
  }

  private async runOnce(): Promise<HourlyRun> {
    const now = this.now();
    const result: HourlyRun = { ran: false, hour: startOfHour(now).toISOString(), accounts: 0, triggered: 0, blocked: 0 };
    await runClaimedPeriod(this.dataSource, { job: JOB, advisoryLockKey: this.options.postgres ? ADVISORY_LOCK_KEY : null, periodStart: startOfHour(now), now }, async () => {
      const accounts = (await this.dataSource.query(
        `SELECT DISTINCT a.id FROM account a JOIN alert_threshold t ON t.account_id = a.id WHERE a.tier = 'pro' ORDER BY a.id`,
      )) as { id: number }[];
      result.ran = true;
      for (const { id } of accounts) {
        const check = await this.alertEvaluation.check(id, 'pro', 'scheduled', this.quotas.forAccount(id, 'pro'), now);
        result.accounts++;
        result.triggered += check.triggered.length;
        result.blocked += check.billsBlocked.length;
      }
      // `hour` is the real hour claimed (one run an hour); `today` the service's day whose nowcasts were checked
      this.logger.info({ today: this.options.serviceDay?.(), ...result }, 'hourly alert check');
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
