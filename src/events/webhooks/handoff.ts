import type { WebhookFormat } from '../../vocabulary';
import type { ServiceEvent } from '../event';

/** An outbox row as the worker sends it: the delivery and its endpoint's address and secrets. */
export interface ClaimedDelivery {
  id: number;
  endpoint_id: number;
  /** the endpoint's owner: attempts under way are counted per account too (DeliverySlots) */
  account_id: number;
  event_id: string;
  body: string;
  /** the delivery's own format (its endpoint's when it was queued): standard is signed, chat formats are not */
  format: WebhookFormat;
  attempt: number;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

/** A claim made by this process's worker for rows the outbox is about to write. */
export interface Preclaim {
  /** claimed_at of the rows */
  at: Date;
  /** their next_attempt_at: when the claim lapses and any instance may claim them again */
  until: Date;
  /** how many of the rows may be written claimed (the rest are written due, for any instance) */
  count: number;
}

/** Rows of a transaction that never committed are forgotten this long after they were written (by then their claim has lapsed anyway). */
const FORGET_AFTER_MS = 60_000;

export interface HandoffReceiver {
  /** rows were queued: look for due rows now rather than at the next poll */
  wake(): void;
  preclaim(count: number): Preclaim | null;
  /** rows written claimed by `preclaim`, whose transaction has committed: to be sent without claiming them again */
  accept(rows: ClaimedDelivery[], claimedAt: Date): void;
}

/**
 * What this process's delivery worker hears of the outbox: that rows were queued (`queued`: a
 * test event, a recovery, an emitter's rows written), and the refresh's outbox rows handed to it in memory. The outbox writes
 * them already claimed (attempt 1, claimed_at, due again when the claim lapses) in the event's
 * transaction, and the worker gets them only once that transaction has committed (`committed`,
 * told by the event log): the round trip of claiming them back is skipped, while the database
 * still holds every row, so nothing is lost if the process dies (an embedded database hands the
 * claims back at start; on PostgreSQL they lapse and any instance sends them). Rows of a
 * transaction that rolled back are never handed over; what is kept for them is dropped once their
 * claim would have lapsed.
 */
export class OutboxHandoff {
  private receiver: HandoffReceiver | null = null;
  private readonly pending = new Map<string, { claimedAt: Date; writtenAt: number; rows: ClaimedDelivery[] }>();

  /** The worker of this process; returns the detach. */
  attach(receiver: HandoffReceiver): () => void {
    this.receiver = receiver;
    return () => {
      if (this.receiver !== receiver) return;
      this.receiver = null;
      this.pending.clear();
    };
  }

  /** How many of `count` rows about to be written may be written claimed, and the claim's times; null: none. */
  preclaim(count: number): Preclaim | null {
    return count > 0 ? (this.receiver?.preclaim(count) ?? null) : null;
  }

  /** Rows written claimed by `claim` in a transaction still open. */
  written(claim: Preclaim, rows: ClaimedDelivery[]): void {
    const now = Date.now();
    for (const [id, entry] of this.pending) if (now - entry.writtenAt > FORGET_AFTER_MS) this.pending.delete(id);
    for (const row of rows) {
      const entry = this.pending.get(row.event_id);
      if (entry && entry.claimedAt === claim.at) entry.rows.push(row);
      else this.pending.set(row.event_id, { claimedAt: claim.at, writtenAt: now, rows: [row] });
    }
  }

  /** Rows were queued: the worker looks for due rows (those written in a transaction still open are found once it commits: `committed` wakes it again). */
  queued(): void {
    this.receiver?.wake();
  }

  /** The transaction that recorded `events` has committed: their claimed rows go to the worker, which looks for the rest (written due). */
  committed(events: readonly ServiceEvent[]): void {
    this.receiver?.wake();
    if (!this.pending.size) return;
    for (const event of events) {
      const entry = this.pending.get(event.id);
      if (!entry) continue;
      this.pending.delete(event.id);
      this.receiver?.accept(entry.rows, entry.claimedAt);
    }
  }
}
