/**
 * The digest timer (issue 33): once a minute, the digests due (src/services/digest.service.ts).
 * The minute is claimed in job_run, on PostgreSQL holding an advisory lock, so of several
 * instances one looks; the digest service's own record per occurrence is what makes a digest go
 * once, whoever looks, so a claim lost with its process only delays the digests to the next minute.
 */
import type { DataSource } from 'typeorm';
import { isConnectionFailure } from '../common/connection-failure';
import type { Logger } from '../logger';
import type { DigestRun, DigestService } from '../services/digest.service';
import { JobTicker } from './job-ticker';
import { runClaimedPeriod } from './period-claim';

const JOB = 'mail-digests';
const ADVISORY_LOCK_KEY = 74_110_004;
/** Looks a minute apart: a digest goes within a minute of its time (the issue allows two). */
const LOOK_MS = 60_000;
const startOfMinute = (at: Date) => new Date(Math.floor(at.getTime() / 60_000) * 60_000);

export class DigestJob {
  private readonly ticker = new JobTicker(
    () => this.runOnce(),
    (error) => isConnectionFailure(error) || this.logger.error({ err: error }, 'email digests failed'),
    () => LOOK_MS,
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly digests: DigestService,
    private readonly logger: Logger,
    private readonly options: { postgres: boolean; now?: () => Date },
  ) {}

  /** Looks for digests due, unless this minute was looked at already (by anyone); null then. */
  runDue(): Promise<DigestRun | null> {
    return this.ticker.runDue();
  }

  private async runOnce(): Promise<DigestRun | null> {
    const now = this.options.now?.() ?? new Date();
    let run: DigestRun | null = null;
    await runClaimedPeriod(this.dataSource, { job: JOB, advisoryLockKey: this.options.postgres ? ADVISORY_LOCK_KEY : null, periodStart: startOfMinute(now), now }, async () => {
      run = await this.digests.sendDue(now);
    });
    return run;
  }

  start(): void {
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }
}
