/**
 * Sends the mail outbox, as the webhook delivery worker sends its own: due rows are claimed in one
 * statement (`FOR UPDATE SKIP LOCKED`, so instances sharing a PostgreSQL database never claim one
 * row together); a claim counts an attempt and pushes the row's due time past it, so a row whose
 * sender died is due again when the claim lapses (at once on the embedded database, whose only
 * process hands back the claims of the one before). A 4xx or a connection failure waits its turn
 * of the webhooks' retry schedule; a 5xx at RCPT or DATA suppresses the address.
 */
import type { DataSource } from 'typeorm';
import { isConnectionFailure } from '../../common/connection-failure';
import type { Logger } from '../../logger';
import { retryDelayMs } from '../webhooks/retry-schedule';
import type { ClaimedMail, MailAttempt, MailTransport } from './transport';

/** Attempts under way at once in one instance (the SMTP pool's connections take them in turn). */
const CONCURRENCY = 8;
/** A claim lapses this long after it was made: past any attempt's timeouts (connect, greet, socket). */
export const MAIL_CLAIM_MS = 120_000;
/** How often due rows are looked for without a wake (retries, other instances' rows). */
const POLL_MS = 1_000;
const EMBEDDED_POLL_MS = 5_000;

/**
 * $1 now, $2 the claim's lapse, $3 how many. The account's status comes with the row: a row for an
 * address no longer verified (suppressed, or changed) is dropped, except the verification mail.
 */
const CLAIM_DUE = `WITH claimed AS (
    UPDATE mail_message m SET attempt = m.attempt + 1, claimed_at = $1, next_attempt_at = $2
     WHERE m.id IN (SELECT id FROM mail_message WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
    RETURNING m.id, m.account_id, m.to_address, m.event_id, m.message_id, m.subject, m.text_body, m.raw, m.attempt, m.kind)
  SELECT c.*, a.email_status, a.email AS account_email FROM claimed c JOIN account a ON a.id = c.account_id`;

type ClaimedRow = ClaimedMail & { email_status: string; account_email: string };

export interface MailWorkerOptions {
  transport: MailTransport;
  from: string;
  /** PGlite: this process owns the database, so claims left at start are a dead process's, handed back at once */
  embedded: boolean;
  logger: Logger;
  /** the clock of claims and retry schedules (tests move it) */
  now?: () => Date;
  random?: () => number;
  pollMs?: number;
}

export class MailWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** attempts by outcome, for tests and metrics */
  readonly counts = { sent: 0, retry: 0, refused: 0, failed_for_good: 0 };

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: MailWorkerOptions,
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  async start(): Promise<void> {
    if (this.options.embedded) {
      // nobody else can hold a claim on this database: any left is from a process that was killed
      await this.dataSource
        .query(`UPDATE mail_message SET attempt = attempt - 1, claimed_at = NULL, next_attempt_at = $1 WHERE status = 'pending' AND claimed_at IS NOT NULL`, [this.now()])
        .catch((error: Error) => this.options.logger.error({ err: error }, 'mail: could not hand back the claims of the last run (they are sent when their claims lapse)'));
    }
    this.started = true;
    this.schedule(0);
  }

  /** Rows were queued: look now, and once more shortly (they become visible when their transaction commits). */
  wake(): void {
    this.schedule(0);
    setTimeout(() => this.schedule(0), 100).unref();
  }

  private schedule(delayMs: number): void {
    if (!this.started || this.stopping) return;
    if (this.running) {
      if (delayMs === 0) this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), delayMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.timer = null;
    this.running = this.runDue().catch((error: Error) => {
      if (!isConnectionFailure(error)) this.options.logger.error({ err: error }, 'mail: claiming failed');
    });
    await this.running;
    this.running = null;
    const again = this.again;
    this.again = false;
    this.schedule(again ? 0 : (this.options.pollMs ?? (this.options.embedded ? EMBEDDED_POLL_MS : POLL_MS)));
  }

  /** Claims and sends what is due now until nothing is, waiting for those attempts (the loop's step; tests call it). */
  async runDue(): Promise<void> {
    for (;;) {
      if (this.stopping) return;
      const now = this.now();
      const rows = (await this.dataSource.query(CLAIM_DUE, [now, new Date(now.getTime() + MAIL_CLAIM_MS), CONCURRENCY])) as ClaimedRow[];
      if (!rows.length) return;
      await Promise.all(rows.map((row) => this.track(this.attempt(row))));
      if (rows.length < CONCURRENCY) return;
    }
  }

  private track(attempt: Promise<void>): Promise<void> {
    const tracked = attempt.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    return tracked;
  }

  private async attempt(row: ClaimedRow): Promise<void> {
    // nothing but the verification mail goes to an address its account has not verified (or no longer has)
    const deliverable = row.kind === 'verification' || (row.email_status === 'VERIFIED' && row.account_email === row.to_address);
    if (!deliverable) {
      await this.dataSource.query(`UPDATE mail_message SET status = 'suppressed', claimed_at = NULL, last_error = $3 WHERE id = $1 AND attempt = $2`, [row.id, row.attempt, 'the address is not verified (or is no longer the account’s)']);
      return;
    }
    let result: MailAttempt;
    try {
      result = await this.options.transport.send(row, this.options.from);
    } catch (error) {
      result = { outcome: 'retry', error: String((error as Error).message ?? error).slice(0, 300) };
    }
    try {
      await this.record(row, result);
    } catch (error) {
      if (!isConnectionFailure(error as Error)) this.options.logger.error({ err: error, mail: row.id }, 'mail: recording an attempt failed');
    }
  }

  /** Writes an attempt's outcome, unless the claim was lost meanwhile (claimed again after it lapsed). */
  private async record(row: ClaimedRow, result: MailAttempt): Promise<void> {
    const now = this.now();
    this.counts[result.outcome]++;
    const claim = [row.id, row.attempt];
    if (result.outcome === 'sent') {
      await this.dataSource.query(`UPDATE mail_message SET status = 'sent', claimed_at = NULL, sent_at = $3, last_error = NULL WHERE id = $1 AND attempt = $2 AND claimed_at IS NOT NULL`, [...claim, now]);
      return;
    }
    if (result.outcome === 'refused') {
      await this.suppress(row, result.error);
      return;
    }
    const delay = retryDelayMs(row.attempt, this.options.random);
    if (delay === null) this.counts.failed_for_good++;
    await this.dataSource.query(`UPDATE mail_message SET status = $3, next_attempt_at = $4, claimed_at = NULL, last_error = $5 WHERE id = $1 AND attempt = $2 AND claimed_at IS NOT NULL`, [
      ...claim,
      delay === null ? 'failed' : 'pending',
      new Date(now.getTime() + (delay ?? 0)),
      result.error,
    ]);
    this.options.logger.warn({ mail: row.id, attempt: row.attempt, error: result.error }, delay === null ? 'mail: failed for good after its last attempt' : 'mail: attempt failed, retried later');
    // due then: looked at then, not at the next poll (the clock of `now` may be a test's; timers run on the real one)
    if (delay !== null) this.schedule(delay);
  }

  /** A 5xx at RCPT or DATA: this row and every other pending one to the address stop; the account is SUPPRESSED while it has that address. */
  private async suppress(row: ClaimedRow, error: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`UPDATE mail_message SET status = 'suppressed', claimed_at = NULL, last_error = $3 WHERE id = $1 AND attempt = $2`, [row.id, row.attempt, error]);
      await manager.query(`UPDATE mail_message SET status = 'suppressed', last_error = $3 WHERE account_id = $1 AND to_address = $2 AND status = 'pending' AND claimed_at IS NULL`, [row.account_id, row.to_address, `suppressed: ${error}`]);
      await manager.query(`UPDATE account SET email_status = 'SUPPRESSED' WHERE id = $1 AND email = $2`, [row.account_id, row.to_address]);
    });
    this.options.logger.warn({ mail: row.id, account: row.account_id, error }, 'mail: the address was refused for good (5xx): suppressed until verified again');
  }

  private stopped: Promise<void> | null = null;

  /** Stops claiming and waits for attempts under way (an SMTP attempt ends within its timeouts); closes the transport. */
  stop(): Promise<void> {
    return (this.stopped ??= (async () => {
      this.stopping = true;
      if (this.timer) clearTimeout(this.timer);
      await this.running;
      await Promise.all(this.inFlight);
      this.options.transport.close();
    })());
  }
}
