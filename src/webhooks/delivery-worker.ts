import type { DataSource } from 'typeorm';
import { isConnectionFailure } from '../db/connection-failure';
import type { Logger } from '../logger';
import { DISABLE_AFTER_FAILING_MS, retryDelayMs } from './retry-schedule';
import { ATTEMPT_TIMEOUT_MS, type AttemptOutcome, type AttemptResult, postWebhook } from './send';
import { signedHeaders } from './signing';
import type { UrlPolicy } from './url-safety';

/** Attempts under way at once per endpoint (in one instance): a slow receiver holds only its own slots. */
export const PER_ENDPOINT_CONCURRENCY = 4;
/** Attempts under way at once in one instance. */
export const TOTAL_CONCURRENCY = 200;
/** How often due rows are looked for when nothing said rows were queued (retries come due this way). */
const POLL_MS = 250;
/** A claim lapses this long after it was made, so a delivery of an instance that died is sent again (on PostgreSQL). */
const CLAIM_MS = ATTEMPT_TIMEOUT_MS + 5_000;
/** Due rows looked at per free slot in one claim: enough to skip past a few busy endpoints' rows. */
const CANDIDATES_PER_SLOT = 4;
/** Successes are written together: at most this many, at most this long after the first. */
const RECORD_BATCH = 100;
const RECORD_WAIT_MS = 20;
/** After an attempt ends, the next claim waits this long for others to end too (one claim, not one per attempt). */
const RECLAIM_WAIT_MS = 20;
/** For this long after a wake, look every RECLAIM_WAIT_MS rather than every POLL_MS. */
const AFTER_WAKE_MS = 500;
/** On shutdown, attempts under way get this long to finish; the rest are handed back, due at once. */
const STOP_GRACE_MS = 2_000;

export type DeliveryCounts = Record<AttemptOutcome | 'failed_for_good', number>;
export const newDeliveryCounts = (): DeliveryCounts => ({ delivered: 0, http_error: 0, timeout: 0, network_error: 0, refused_address: 0, aborted: 0, failed_for_good: 0 });

interface Claimed {
  id: number;
  endpoint_id: number;
  event_id: string;
  body: string;
  attempt: number;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

export interface DeliveryWorkerOptions {
  urlPolicy: UrlPolicy;
  /** the secrets signing an attempt made at a time (the current one, and the previous within 24 h of a rotation) */
  secretsFor: (endpoint: { secretSealed: string; previousSecretSealed: string | null; previousSecretExpiresAt: Date | null }, at: Date) => string[];
  /** PGlite: this process owns the database, so claims left at start are a dead process's, handed back at once */
  embedded: boolean;
  logger: Logger;
  /** outcome counts for /metrics */
  counts?: DeliveryCounts;
  /** the clock of retry schedules (tests move it) */
  now?: () => Date;
  random?: () => number;
  timeoutMs?: number;
  perEndpoint?: number;
  total?: number;
  pollMs?: number;
}

/**
 * Sends the outbox. Due rows are claimed in one statement (`FOR UPDATE SKIP LOCKED`, so instances
 * sharing a PostgreSQL database never claim one row together); a claim counts one attempt and
 * pushes the row's due time past the attempt, so a row whose sender died is due again. A row is
 * done only on a 2xx; otherwise it waits its retry, and fails after the last. An endpoint whose
 * every attempt failed for 3 days is disabled with the reason.
 */
export class DeliveryWorker {
  private readonly inFlight = new Map<number, Promise<void>>();
  /** Attempts per endpoint whose request is under way (recording its outcome comes after, and holds no slot). */
  private readonly busy = new Map<number, number>();
  private requestsUnderWay = 0;
  private readonly aborts = new Set<AbortController>();
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private wokenAt = 0;
  private polling: Promise<void> | null = null;
  private again = false;
  /** a wake came while a claim was running: that claim may have missed the rows, so look again at once */
  private wokenWhilePolling = false;
  private started = false;
  private stopping = false;
  private readonly counts: DeliveryCounts;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: DeliveryWorkerOptions,
  ) {
    this.counts = options.counts ?? newDeliveryCounts();
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  async start(): Promise<void> {
    if (this.options.embedded) {
      // nobody else can hold a claim on this database: any left is from a process that was killed
      await this.dataSource
        .query(`UPDATE webhook_delivery SET claimed_at = NULL, next_attempt_at = $1 WHERE status = 'pending' AND claimed_at IS NOT NULL`, [this.now()])
        .catch((error: Error) => this.options.logger.error({ err: error }, 'webhook delivery: could not hand back the claims of the last run (they are sent when their claims lapse)'));
    }
    this.started = true;
    this.schedule(0);
  }

  /**
   * Rows were queued: look now rather than at the next poll, and keep looking often for a moment,
   * since the rows become visible only when the transaction that wrote them commits.
   */
  wake(): void {
    this.wokenAt = Date.now();
    if (this.polling) this.wokenWhilePolling = true;
    this.schedule(0);
  }

  /** The next look, at the earliest of the times asked for. */
  private schedule(delayMs: number): void {
    if (!this.started || this.stopping) return;
    if (this.polling) {
      if (delayMs <= RECLAIM_WAIT_MS) this.again = true;
      return;
    }
    const due = Date.now() + delayMs;
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => void this.poll(), delayMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.timer = null;
    this.polling = this.claimAndSend()
      .then((full) => {
        if (full) this.again = true;
      })
      .catch((error: Error) => {
        if (!isConnectionFailure(error)) this.options.logger.error({ err: error }, 'webhook delivery: claiming failed');
      });
    await this.polling;
    this.polling = null;
    const again = this.again;
    const woken = this.wokenWhilePolling;
    this.again = false;
    this.wokenWhilePolling = false;
    const justWoken = Date.now() - this.wokenAt < AFTER_WAKE_MS;
    this.schedule(woken ? 0 : again || justWoken ? RECLAIM_WAIT_MS : (this.options.pollMs ?? POLL_MS));
  }

  /** Claims what is due and free to send, and starts sending it; true when it filled every free slot (more may be due). */
  private async claimAndSend(): Promise<boolean> {
    const total = this.options.total ?? TOTAL_CONCURRENCY;
    // outcomes waiting to be written count too, once there are as many as the slots: the database sets the pace
    const free = Math.min(total - this.requestsUnderWay, 2 * total - this.inFlight.size);
    if (free <= 0 || this.stopping) return false;
    const now = this.now();
    const perEndpoint = this.options.perEndpoint ?? PER_ENDPOINT_CONCURRENCY;
    const saturated = [...this.busy].filter(([, n]) => n >= perEndpoint).map(([id]) => id);
    const partly = [...this.busy].filter(([, n]) => n < perEndpoint);
    const raw = (await this.dataSource.query(
      // The window ranks only the oldest due rows of endpoints with a free slot (a bounded set, whatever
      // the backlog); each endpoint gets its free slots at most. The locking select re-checks the row.
      `WITH claimed AS (
         UPDATE webhook_delivery d SET attempt = d.attempt + 1, claimed_at = $1, next_attempt_at = $2
          WHERE d.id IN (
            SELECT id FROM webhook_delivery
             WHERE id IN (
               SELECT ranked.id FROM (
                 SELECT q.id, q.next_attempt_at,
                        row_number() OVER (PARTITION BY q.endpoint_id ORDER BY q.next_attempt_at, q.id) AS n,
                        $4::int - coalesce(b.n, 0) AS slots
                   FROM (SELECT q.id, q.endpoint_id, q.next_attempt_at
                           FROM webhook_delivery q JOIN webhook_endpoint e ON e.id = q.endpoint_id AND e.active
                          WHERE q.status = 'pending' AND q.next_attempt_at <= $1 AND q.endpoint_id <> ALL($5::int[])
                          ORDER BY q.next_attempt_at, q.id
                          LIMIT $8) q
                   LEFT JOIN unnest($6::int[], $7::int[]) AS b(endpoint_id, n) ON b.endpoint_id = q.endpoint_id) ranked
                WHERE ranked.n <= ranked.slots
                ORDER BY ranked.next_attempt_at, ranked.id
                LIMIT $3)
               AND status = 'pending' AND next_attempt_at <= $1
             FOR UPDATE SKIP LOCKED)
         RETURNING d.id, d.endpoint_id, d.event_id, d.body, d.attempt)
       SELECT c.*, e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at
         FROM claimed c JOIN webhook_endpoint e ON e.id = c.endpoint_id`,
      [now, new Date(now.getTime() + CLAIM_MS), free, perEndpoint, saturated, partly.map(([id]) => id), partly.map(([, n]) => n), free * CANDIDATES_PER_SLOT],
    )) as Claimed[];
    for (const row of raw) this.send(row);
    return raw.length === free;
  }

  private send(row: Claimed): void {
    this.busy.set(row.endpoint_id, (this.busy.get(row.endpoint_id) ?? 0) + 1);
    this.requestsUnderWay += 1;
    const abort = new AbortController();
    this.aborts.add(abort);
    // The slot is free once the receiver has answered, before the outcome is written: successes are
    // written in batches up to RECORD_WAIT_MS later, and holding slots through that wait made each
    // claim wait for the last batch's write. The row stays claimed (due CLAIM_MS ahead) until then.
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.requestsUnderWay -= 1;
      const left = (this.busy.get(row.endpoint_id) ?? 1) - 1;
      if (left > 0) this.busy.set(row.endpoint_id, left);
      else this.busy.delete(row.endpoint_id);
      // a slot is free: anything due for this endpoint may go soon
      this.schedule(RECLAIM_WAIT_MS);
    };
    const attempt = this.attempt(row, abort.signal)
      .then((result) => {
        this.aborts.delete(abort);
        release();
        return this.record(row, result);
      })
      .catch((error: Error) => {
        if (!isConnectionFailure(error)) this.options.logger.error({ err: error, delivery: row.id }, 'webhook delivery: recording an attempt failed');
      })
      .finally(() => {
        this.aborts.delete(abort);
        this.inFlight.delete(row.id);
        release();
      });
    this.inFlight.set(row.id, attempt);
  }

  private async attempt(row: Claimed, signal: AbortSignal): Promise<AttemptResult> {
    const at = new Date();
    let secrets: string[];
    try {
      secrets = this.options.secretsFor({ secretSealed: row.secret_sealed, previousSecretSealed: row.previous_secret_sealed, previousSecretExpiresAt: row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) }, this.now());
    } catch (error) {
      return { outcome: 'network_error', statusCode: null, error: `cannot sign: ${(error as Error).message}`, durationMs: 0 };
    }
    return postWebhook(row.url, row.body, signedHeaders(row.event_id, row.body, secrets, at), { policy: this.options.urlPolicy, timeoutMs: this.options.timeoutMs, signal });
  }

  /** Writes an attempt's outcome, unless the claim was lost meanwhile (the row was deleted, or claimed again after its claim lapsed). */
  private async record(row: Claimed, result: AttemptResult): Promise<void> {
    const now = this.now();
    this.counts[result.outcome]++;
    const claim = [row.id, row.attempt];
    if (result.outcome === 'aborted') {
      // cut short by a shutdown: not an attempt the receiver saw to the end; due again at once
      await this.dataSource.query(`UPDATE webhook_delivery SET attempt = attempt - 1, claimed_at = NULL, next_attempt_at = $3 WHERE id = $1 AND attempt = $2 AND claimed_at IS NOT NULL`, [...claim, now]);
      return;
    }
    const last = [now, result.statusCode, result.error, result.durationMs];
    if (result.outcome === 'delivered') return this.recordDelivered(row, result, now);
    const delay = retryDelayMs(row.attempt, this.options.random);
    if (delay === null) this.counts.failed_for_good++;
    await this.dataSource.query(
      `UPDATE webhook_delivery SET status = $7, next_attempt_at = $8, claimed_at = NULL, last_attempt_at = $3, last_status_code = $4, last_error = $5, last_duration_ms = $6 WHERE id = $1 AND attempt = $2 AND claimed_at IS NOT NULL`,
      [...claim, ...last, delay === null ? 'failed' : 'pending', new Date(now.getTime() + (delay ?? 0))],
    );
    await this.noteFailure(row.endpoint_id, result, now);
  }

  private delivered: { row: Claimed; result: AttemptResult; at: Date; done: (error?: Error) => void }[] = [];
  private flushTimer: NodeJS.Timeout | null = null;

  /** Successes are the common case: written a batch at a time, one statement for the rows and their endpoints. */
  private recordDelivered(row: Claimed, result: AttemptResult, at: Date): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.delivered.push({ row, result, at, done: (error) => (error ? reject(error) : resolve()) });
      if (this.delivered.length >= RECORD_BATCH) this.flushDelivered();
      else this.flushTimer ??= setTimeout(() => this.flushDelivered(), RECORD_WAIT_MS);
    });
  }

  private flushDelivered(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.delivered;
    this.delivered = [];
    if (!batch.length) return;
    this.dataSource
      .query(
        `WITH done AS (
           UPDATE webhook_delivery d SET status = 'delivered', claimed_at = NULL, last_attempt_at = v.at, last_status_code = v.code, last_error = NULL, last_duration_ms = v.ms
             FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::int[], $5::int[]) AS v(id, attempt, at, code, ms)
            WHERE d.id = v.id AND d.attempt = v.attempt AND d.claimed_at IS NOT NULL
           RETURNING d.endpoint_id)
         UPDATE webhook_endpoint SET failing_since = NULL WHERE id IN (SELECT endpoint_id FROM done) AND failing_since IS NOT NULL`,
        [batch.map((b) => b.row.id), batch.map((b) => b.row.attempt), batch.map((b) => b.at), batch.map((b) => b.result.statusCode), batch.map((b) => b.result.durationMs)],
      )
      .then(
        () => batch.forEach((b) => b.done()),
        (error: Error) => batch.forEach((b) => b.done(error)),
      );
  }

  private async noteFailure(endpointId: number, result: AttemptResult, now: Date): Promise<void> {
    const rows = (await this.dataSource.query(`UPDATE webhook_endpoint SET failing_since = coalesce(failing_since, $2) WHERE id = $1 RETURNING failing_since`, [endpointId, now])) as unknown;
    const first = (Array.isArray(rows) && Array.isArray(rows[0]) ? rows[0][0] : (rows as { failing_since: Date }[])[0]) as { failing_since: Date | string } | undefined;
    if (!first) return;
    const since = new Date(first.failing_since);
    if (now.getTime() - since.getTime() < DISABLE_AFTER_FAILING_MS) return;
    const reason = `every delivery attempt has failed since ${since.toISOString()} (the last: ${result.error}); re-enable it with active: true once it answers`;
    await this.dataSource.query(`UPDATE webhook_endpoint SET active = false, disabled_reason = $2 WHERE id = $1 AND active`, [endpointId, reason]);
    this.options.logger.warn({ endpoint: endpointId, since }, 'webhook endpoint disabled: every attempt failed for 3 days');
  }

  /** Claims and sends what is due now, and waits for those attempts (tests, and a last pass). */
  async runDue(): Promise<void> {
    while (!this.stopping && (await this.claimAndSend())) await Promise.all(this.inFlight.values());
    await Promise.all(this.inFlight.values());
  }

  /** Stops claiming; attempts under way get a moment to finish, and the rest are handed back for the next start. */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    const all = Promise.all(this.inFlight.values());
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (grace = setTimeout(resolve, graceMs)))]);
    clearTimeout(grace);
    for (const abort of this.aborts) abort.abort();
    await all;
  }

  /** Attempts under way now (their requests, or the writing of their outcomes). */
  get sending(): number {
    return this.inFlight.size;
  }
}
