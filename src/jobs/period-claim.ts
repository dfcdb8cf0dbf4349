import type { DataSource } from 'typeorm';
import { whileHoldingAdvisoryLock } from '../db/advisory-lock';

/*
 * Which instance runs a recurring job's period (an hour of the alert check, an interval of the
 * sync, a retrain's days): the one that claims the period first.
 */

/** The hour `at` falls in, as the start of that hour: the period an hourly job claims and reports. */
export const startOfHour = (at: Date): Date => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

export interface PeriodClaim {
  /** the job's name in job_run */
  job: string;
  /** PostgreSQL: several instances share the database, so the claim is made holding this advisory lock */
  advisoryLockKey: number | null;
  /** the start of the period claimed: a claim succeeds only for a period later than the last one claimed */
  periodStart: Date;
  now: Date;
}

/**
 * Runs `work` if this period of the job has not been claimed yet, by anyone: the period is claimed
 * in job_run (an update that only succeeds for a later period), on PostgreSQL while holding an
 * advisory lock on a connection of its own, so that of several instances one runs it. The lock is
 * let go only by the instance that got it. Returns whether `work` ran.
 */
export async function runClaimedPeriod(dataSource: DataSource, claim: PeriodClaim, work: () => Promise<void>): Promise<boolean> {
  const claimAndRun = async () => {
    const claimed = (await dataSource.query(
      `INSERT INTO job_run (name, period_start, claimed_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET period_start = EXCLUDED.period_start, claimed_at = EXCLUDED.claimed_at
       WHERE job_run.period_start < EXCLUDED.period_start
       RETURNING name`,
      [claim.job, claim.periodStart, claim.now],
    )) as unknown[];
    if (!claimed.length) return false;
    await work();
    return true;
  };
  const outcome = await whileHoldingAdvisoryLock(dataSource, claim.advisoryLockKey, claimAndRun);
  return outcome.held && outcome.result;
}
