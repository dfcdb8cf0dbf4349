import { setMaxListeners } from 'node:events';
import type { DataSource } from 'typeorm';
import { isConnectionFailure } from '../../common/connection-failure';
import type { Logger } from '../../logger';
import type { ClaimedDelivery as Claimed, HandoffReceiver, Preclaim } from './handoff';
import { CLAIM_DUE, HAND_BACK, RECORD_FAILED } from './delivery-queries';
import { DeliveredWriter, RECORD_BATCH_SENDING, RECORD_HOLD_MS } from './delivered-writer';
import { DeliverySlots } from './delivery-slots';
import { DISABLE_AFTER_FAILING_MS, retryDelayMs } from './retry-schedule';
import { ATTEMPT_TIMEOUT_MS, type AttemptOutcome, type AttemptResult, postWebhook } from './send';
import { signedHeaders } from './signing';
import type { UrlPolicy } from './url-safety';
import { isChatFormat } from '../../vocabulary';

/** Attempts under way at once per endpoint (in one instance): a slow receiver holds only its own slots. */
export const PER_ENDPOINT_CONCURRENCY = 4;
/** Attempts under way at once per account (in one instance): one account's receivers, however slow, leave the rest of TOTAL_CONCURRENCY to others. */
export const PER_ACCOUNT_CONCURRENCY = 20;
/** Attempts under way at once in one instance. */
export const TOTAL_CONCURRENCY = 200;
/** How often due rows are looked for when nothing said rows were queued: other instances' rows, and retries, come due this way. */
const POLL_MS = 250;
/**
 * The same on the embedded database, where every row is written by this process, which wakes the
 * worker, and every retry is scheduled by this worker, which looks when it is due: the look is a
 * safety net there, and each costs the one thread a few milliseconds of planning.
 */
const EMBEDDED_POLL_MS = 5_000;
/** A claim lapses this long after it was made, so a delivery of an instance that died is sent again (on PostgreSQL). */
const CLAIM_MS = ATTEMPT_TIMEOUT_MS + 5_000;
/** Due rows looked at per free slot in one claim: enough to skip past a few busy endpoints' rows. */
const CANDIDATES_PER_SLOT = 4;
/** After an attempt ends, the next claim waits this long for others to end too (one claim, not one per attempt). */
const RECLAIM_WAIT_MS = 20;
/** For this long after a wake, look every RECLAIM_WAIT_MS rather than every POLL_MS. */
const AFTER_WAKE_MS = 500;
/** On shutdown, attempts under way get this long to finish; the rest are handed back, due at once. */
const STOP_GRACE_MS = 2_000;

export type DeliveryCounts = Record<AttemptOutcome | 'failed_for_good', number>;
export const newDeliveryCounts = (): DeliveryCounts => ({ delivered: 0, http_error: 0, timeout: 0, network_error: 0, refused_address: 0, aborted: 0, failed_for_good: 0 });

/** Rows handed over in memory (OutboxHandoff) held at most, per slot: past that the outbox writes rows due, for any instance. */
const HELD_PER_SLOT = 10;
/** A held row's attempt ends this long before its claim lapses: its success may wait RECORD_HOLD_MS, then the write, DNS (outside the timeout), other instances' clocks. */
const HELD_MARGIN_MS = RECORD_HOLD_MS + 4_000;
/** A held row waits for a slot at most this long, else it is handed back; its claim covers the wait, the attempt and the margin. */
const HELD_CLAIM_MS = 4_000 + ATTEMPT_TIMEOUT_MS + HELD_MARGIN_MS;

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
  perAccount?: number;
  total?: number;
  pollMs?: number;
}

/**
 * Sends the outbox. Due rows are claimed in one statement (`FOR UPDATE SKIP LOCKED`, so instances
 * sharing a PostgreSQL database never claim one row together); a claim counts one attempt and
 * pushes the row's due time past the attempt, so a row whose sender died is due again. A row is
 * done only on a 2xx; otherwise it waits its retry, and fails after the last. An endpoint whose
 * every attempt failed for 3 days is disabled with the reason. Slots are shared fairly (DeliverySlots:
 * per endpoint, per account, one for an endpoint that timed out) and accounts take turns in a claim,
 * so one account's slow receivers delay only that account's deliveries.
 */
export class DeliveryWorker implements HandoffReceiver {
  private readonly inFlight = new Map<number, Promise<void>>();
  /** Attempts per endpoint and account whose request is under way (recording its outcome comes after, and holds no slot). */
  private readonly slots: DeliverySlots;
  private requestsUnderWay = 0;
  /** Cuts short every attempt under way at stop: one signal for all (a controller per attempt was ~3 µs each). */
  private readonly stopAttempts = new AbortController();
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
  /** Rows handed over after their commit, claimed, waiting for a slot: per endpoint in order, endpoints in turn. */
  private readonly held = new Map<number, { row: Claimed; claimedAt: number }[]>();
  private heldCount = 0;
  private readonly handingBack = new Set<Promise<void>>();
  private readonly deliveredWriter: DeliveredWriter;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: DeliveryWorkerOptions,
  ) {
    this.counts = options.counts ?? newDeliveryCounts();
    this.slots = new DeliverySlots(options.perEndpoint ?? PER_ENDPOINT_CONCURRENCY, options.perAccount ?? PER_ACCOUNT_CONCURRENCY);
    this.deliveredWriter = new DeliveredWriter(dataSource, () => this.heldCount > 0);
    setMaxListeners(0, this.stopAttempts.signal);
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
    if (this.heldCount) this.dropExpiredHeld();
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
    this.schedule(woken ? 0 : again || justWoken ? RECLAIM_WAIT_MS : (this.options.pollMs ?? (this.options.embedded ? EMBEDDED_POLL_MS : POLL_MS)));
  }

  /** Claims what is due and free to send, and starts sending it; true when it filled every free slot (more may be due). */
  private async claimAndSend(): Promise<boolean> {
    const total = this.options.total ?? TOTAL_CONCURRENCY;
    // outcomes waiting to be written count too, once there are as many as the slots: the database sets the pace
    // rows held in memory are due too, and go first
    const free = Math.min(total - this.requestsUnderWay, 2 * total - this.inFlight.size) - this.heldCount;
    if (free <= 0 || this.stopping) return false;
    const now = this.now();
    const limits = this.slots.claimLimits();
    const raw = (await this.dataSource.query(CLAIM_DUE, [
      now,
      new Date(now.getTime() + CLAIM_MS),
      free,
      this.options.perEndpoint ?? PER_ENDPOINT_CONCURRENCY,
      limits.fullEndpoints,
      limits.endpoints,
      limits.endpointFree,
      free * CANDIDATES_PER_SLOT,
      limits.fullAccounts,
      limits.accounts,
      limits.accountFree,
      this.options.perAccount ?? PER_ACCOUNT_CONCURRENCY,
    ])) as Claimed[];
    for (const row of raw) this.send(row);
    return raw.length === free;
  }

  private send(row: Claimed): void {
    this.slots.take(row.endpoint_id, row.account_id);
    this.requestsUnderWay += 1;
    // The slot is free once the receiver has answered, before the outcome is written: successes are
    // written in batches (DeliveredWriter) a little later, and holding slots through that wait made each
    // claim wait for the last batch's write. The row stays claimed (due CLAIM_MS ahead) until then.
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.requestsUnderWay -= 1;
      this.slots.release(row.endpoint_id, row.account_id);
      if (this.heldCount) this.sendHeld();
      // a slot is free: anything due for this endpoint may go soon
      this.schedule(RECLAIM_WAIT_MS);
    };
    const attempt = this.attempt(row, this.stopAttempts.signal)
      .then((result) => {
        this.slots.noteOutcome(row.endpoint_id, result.outcome);
        release();
        return this.record(row, result);
      })
      .catch((error: Error) => {
        if (!isConnectionFailure(error)) this.options.logger.error({ err: error, delivery: row.id }, 'webhook delivery: recording an attempt failed');
      })
      .finally(() => {
        this.inFlight.delete(row.id);
        release();
        // its outcome is written: where unwritten outcomes held sending back, it may go on
        if (this.heldCount) this.sendHeld();
        else this.schedule(RECLAIM_WAIT_MS);
      });
    this.inFlight.set(row.id, attempt);
  }

  private async attempt(row: Claimed, signal: AbortSignal): Promise<AttemptResult> {
    const send = { policy: this.options.urlPolicy, timeoutMs: this.options.timeoutMs, signal, format: row.format };
    // Slack and Teams verify no signature: their messages go without one
    if (isChatFormat(row.format)) return postWebhook(row.url, row.body, {}, send);
    const at = new Date();
    let secrets: string[];
    try {
      secrets = this.options.secretsFor({ secretSealed: row.secret_sealed, previousSecretSealed: row.previous_secret_sealed, previousSecretExpiresAt: row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) }, this.now());
    } catch (error) {
      return { outcome: 'network_error', statusCode: null, error: `cannot sign: ${(error as Error).message}`, durationMs: 0 };
    }
    return postWebhook(row.url, row.body, signedHeaders(row.event_id, row.body, secrets, at), send);
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
    if (result.outcome === 'delivered') return this.deliveredWriter.record(row, result, now);
    const delay = retryDelayMs(row.attempt, this.options.random);
    if (delay === null) this.counts.failed_for_good++;
    await this.dataSource.query(RECORD_FAILED, [...claim, ...last, delay === null ? 'failed' : 'pending', new Date(now.getTime() + (delay ?? 0))]);
    // due then: looked at then, not at the next poll (the clock of `now` may be a test's; timers run on the real one)
    if (delay !== null) this.schedule(delay);
    await this.noteFailure(row.endpoint_id, result, now);
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

  /** Rows the outbox may write claimed by this worker (held in memory after their commit, up to HELD_PER_SLOT a slot). */
  preclaim(count: number): Preclaim | null {
    if (!this.started || this.stopping) return null;
    const room = Math.min(count, (this.options.total ?? TOTAL_CONCURRENCY) * HELD_PER_SLOT - this.heldCount);
    if (room <= 0) return null;
    const at = this.now();
    return { at, until: new Date(at.getTime() + HELD_CLAIM_MS), count: room };
  }

  /** Rows written claimed by `preclaim`, their transaction committed: sent as slots allow, with no claim query. */
  accept(rows: Claimed[], claimedAt: Date): void {
    if (this.stopping) return this.handBack(rows);
    const at = claimedAt.getTime();
    for (const row of rows) {
      const queue = this.held.get(row.endpoint_id);
      if (queue) queue.push({ row, claimedAt: at });
      else this.held.set(row.endpoint_id, [{ row, claimedAt: at }]);
    }
    this.heldCount += rows.length;
    this.sendHeld();
  }

  /** Held rows claimed before this are not sent: their attempt might still run when the claim lapses and another instance takes them. */
  private heldDeadline(): number {
    return this.now().getTime() - (HELD_CLAIM_MS - (this.options.timeoutMs ?? ATTEMPT_TIMEOUT_MS) - HELD_MARGIN_MS);
  }

  /** Sends held rows while slots are free, an endpoint's rows in order and endpoints in turn; expired ones are handed back. */
  private sendHeld(): void {
    const total = this.options.total ?? TOTAL_CONCURRENCY;
    const deadline = this.heldDeadline();
    const expired: Claimed[] = [];
    for (const [endpointId, queue] of this.held) {
      if (this.stopping || this.requestsUnderWay >= total || this.inFlight.size >= total + RECORD_BATCH_SENDING) break;
      if (!this.slots.free(endpointId, queue[0].row.account_id)) continue;
      const next = queue.shift()!;
      this.heldCount -= 1;
      this.held.delete(endpointId);
      if (queue.length) this.held.set(endpointId, queue); // to the back: the loop comes to it again after the others
      if (next.claimedAt < deadline) expired.push(next.row);
      else this.send(next.row);
    }
    if (expired.length) this.handBack(expired);
  }

  /** Held rows whose claim is too old to send under: handed back (from poll, so none waits for a slot until its claim lapses). */
  private dropExpiredHeld(): void {
    const deadline = this.heldDeadline();
    const expired: Claimed[] = [];
    for (const [endpointId, queue] of this.held) {
      const keep = queue.filter((h) => h.claimedAt >= deadline);
      if (keep.length === queue.length) continue;
      for (const h of queue) if (h.claimedAt < deadline) expired.push(h.row);
      if (keep.length) this.held.set(endpointId, keep);
      else this.held.delete(endpointId);
    }
    this.heldCount -= expired.length;
    if (expired.length) this.handBack(expired);
  }

  /** Claimed rows this worker will not send: the claim undone (due at once, the attempt not counted) unless it lapsed and another took it. */
  private handBack(rows: Claimed[]): void {
    const done = this.dataSource
      .query(HAND_BACK, [rows.map((r) => r.id), rows.map((r) => r.attempt), this.now()])
      .then(
        () => this.schedule(0),
        (error: Error) => {
          if (!isConnectionFailure(error)) this.options.logger.error({ err: error }, 'webhook delivery: could not hand back claimed rows (they are sent when their claims lapse)');
        },
      )
      .finally(() => this.handingBack.delete(done));
    this.handingBack.add(done);
  }

  /** Claims and sends what is due now, and waits for those attempts (tests, and a last pass). */
  async runDue(): Promise<void> {
    while (!this.stopping && (await this.claimAndSend())) await Promise.all(this.inFlight.values());
    await Promise.all(this.inFlight.values());
  }

  /** Attempts under way now (their requests, or the writing of their outcomes). */
  get sending(): number {
    return this.inFlight.size;
  }

  private stopped: Promise<void> | null = null;

  /** Stops claiming; attempts under way get a moment to finish, and the rest are handed back for the next start. Once: a second call waits for the first. */
  stop(graceMs = STOP_GRACE_MS): Promise<void> {
    return (this.stopped ??= this.stopOnce(graceMs));
  }

  private async stopOnce(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    const held = [...this.held.values()].flatMap((queue) => queue.map((h) => h.row));
    this.held.clear();
    this.heldCount = 0;
    if (held.length) this.handBack(held);
    await this.polling;
    const all = Promise.all(this.inFlight.values());
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (grace = setTimeout(resolve, graceMs)))]);
    clearTimeout(grace);
    this.stopAttempts.abort();
    await all;
    await Promise.all(this.handingBack);
  }
}
