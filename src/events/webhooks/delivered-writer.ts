import type { DataSource } from 'typeorm';
import type { ClaimedDelivery } from './handoff';
import { RECORD_DELIVERED } from './delivery-queries';
import type { AttemptResult } from './send';

/** Successes are written together: at most this many, at most this long after the first. */
const RECORD_BATCH = 100;
const RECORD_WAIT_MS = 20;
/** While handed-over rows wait to be sent, successes are written in batches this large or RECORD_HOLD_MS after the first (on PGlite writes run between sends). */
export const RECORD_BATCH_SENDING = 1_000;
export const RECORD_HOLD_MS = 1_000;

/**
 * Writes successful attempts, the common case, a batch at a time: one statement for the rows and
 * their endpoints. Each success's promise settles when its batch is written.
 */
export class DeliveredWriter {
  private waiting: { row: ClaimedDelivery; result: AttemptResult; at: Date; done: (error?: Error) => void }[] = [];
  private waitingSince = 0;
  private timer: NodeJS.Timeout | null = null;

  /** `sending`: whether handed-over rows wait to be sent, when larger, later batches leave the database to them */
  constructor(
    private readonly dataSource: DataSource,
    private readonly sending: () => boolean,
  ) {}

  record(row: ClaimedDelivery, result: AttemptResult, at: Date): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (!this.waiting.length) this.waitingSince = Date.now();
      this.waiting.push({ row, result, at, done: (error) => (error ? reject(error) : resolve()) });
      if (this.waiting.length >= (this.sending() ? RECORD_BATCH_SENDING : RECORD_BATCH)) this.flush();
      else this.flushSoon();
    });
  }

  private flushSoon(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      if (this.sending() && Date.now() - this.waitingSince < RECORD_HOLD_MS) this.flushSoon();
      else this.flush();
    }, RECORD_WAIT_MS);
  }

  /** Writes what waits now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting;
    this.waiting = [];
    if (!batch.length) return;
    this.dataSource
      .query(
        RECORD_DELIVERED,
        [batch.map((b) => b.row.id), batch.map((b) => b.row.attempt), batch.map((b) => b.at), batch.map((b) => b.result.statusCode), batch.map((b) => b.result.durationMs)],
      )
      .then(
        () => batch.forEach((b) => b.done()),
        (error: Error) => batch.forEach((b) => b.done(error)),
      );
  }
}
