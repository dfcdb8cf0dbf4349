import type { DataSource } from 'typeorm';
import { keepWithin } from '../common/bounded-map';

/* Where log-in and sign-up attempts are counted: the store's interface, in memory, and in the database. */

/** At most `limit` attempts under `key` within the window. */
export interface Allowance {
  key: string;
  limit: number;
}

/** A reservation: granted (`attempt` names it, to release it), or refused until `retryAt` (ms since the epoch). */
export type Reservation = { granted: true; attempt: string } | { granted: false; retryAt: number };

/**
 * Where the attempt limits (src/services/attempt-limit.ts: log-ins, sign-ups) keep their attempts:
 * beside the quotas, so every instance sees the same counts (the database table, or Redis when the
 * quotas are there), and a restart forgets nothing. Keys are `account:<email>|<ip>`
 * (`account:<email>` when the address is unknown), `address:<ip>` and `signup:<ip>`; times are
 * milliseconds since the epoch.
 */
export interface LoginFailureStore {
  /**
   * In one atomic step, whatever runs beside it on this or another instance: when every key has
   * fewer than its limit of attempts later than `since`, records one at `at` under each and grants;
   * otherwise records nothing and says when the first full key has room again (its oldest
   * attempt that still counts leaves the window, `at - since` long).
   */
  reserve(allowances: Allowance[], at: number, since: number): Promise<Reservation>;
  /** Forgets one granted attempt under the key (a log-in that proved right is no guess). */
  release(key: string, attempt: string): Promise<void>;
  /** Forgets the key's attempts. */
  clear(key: string): Promise<void>;
}

/** The moment a key with `times` (oldest first, all within the window) has room for one more, or null when it has room now. */
export function roomAt(times: number[], limit: number, windowMs: number): number | null {
  return times.length >= limit ? times[times.length - limit] + windowMs : null;
}

/** Keys kept at most by the memory store (the oldest forgotten first): an attacker cannot fill the memory. */
const MAX_KEYS = 100_000;

/** In one process's memory: for unit tests, and nothing else. */
export class MemoryLoginFailureStore implements LoginFailureStore {
  private readonly attempts = new Map<string, number[]>();

  private recent = (key: string, since: number) => (this.attempts.get(key) ?? []).filter((t) => t > since);

  // no await between the check and the record: one turn of the event loop is atomic here
  async reserve(allowances: Allowance[], at: number, since: number): Promise<Reservation> {
    const recent = allowances.map(({ key }) => this.recent(key, since));
    for (const [i, { limit }] of allowances.entries()) {
      const retryAt = roomAt(recent[i], limit, at - since);
      if (retryAt !== null) return { granted: false, retryAt };
    }
    for (const [i, { key }] of allowances.entries()) keepWithin(this.attempts, key, [...recent[i], at], MAX_KEYS, { refresh: true });
    return { granted: true, attempt: String(at) };
  }

  async release(key: string, attempt: string): Promise<void> {
    const times = this.attempts.get(key);
    const i = times?.indexOf(Number(attempt)) ?? -1;
    if (i >= 0) times!.splice(i, 1);
  }

  async clear(key: string): Promise<void> {
    this.attempts.delete(key);
  }
}

/** First of pg_advisory_xact_lock's two keys: a space of its own, apart from the jobs' one-key locks. */
const LOCK_SPACE = 0x6c6f67; // "log"
/** Rows older than this go whatever their key: no limit's window is longer. */
export const LONGEST_WINDOW_MS = 24 * 3600_000;

/**
 * In the `login_failure` table (PostgreSQL, or the embedded database): one row an attempt, pruned
 * as the longest window moves. A reservation locks its keys (advisory locks, in key order so two
 * reservations never wait on each other crosswise) before it counts, in its own transaction: on
 * PostgreSQL a count taken without the lock could miss an insert of another instance.
 */
export class SqlLoginFailureStore implements LoginFailureStore {
  constructor(private readonly dataSource: DataSource) {}

  async reserve(allowances: Allowance[], at: number, since: number): Promise<Reservation> {
    const keys = allowances.map((a) => a.key);
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock($1, hashtext(k)) FROM (SELECT DISTINCT unnest($2::text[]) AS k ORDER BY k) locked`, [LOCK_SPACE, keys]);
      // read after the lock: in READ COMMITTED each statement sees what committed before it began
      const rows = (await manager.query(`SELECT key, failed_at FROM login_failure WHERE key = ANY($1::text[]) AND failed_at > $2 ORDER BY failed_at`, [keys, new Date(since)])) as { key: string; failed_at: Date | string }[];
      for (const { key, limit } of allowances) {
        const times = rows.filter((r) => r.key === key).map((r) => new Date(r.failed_at).getTime());
        const retryAt = roomAt(times, limit, at - since);
        if (retryAt !== null) return { granted: false, retryAt };
      }
      await manager.query(`INSERT INTO login_failure (key, failed_at) SELECT unnest($1::text[]), $2::timestamptz`, [keys, new Date(at)]);
      await manager.query(`DELETE FROM login_failure WHERE failed_at <= $1`, [new Date(at - LONGEST_WINDOW_MS)]);
      return { granted: true, attempt: String(at) };
    });
  }

  async release(key: string, attempt: string): Promise<void> {
    // attempts at the same moment are alike: any one of them goes
    await this.dataSource.query(`DELETE FROM login_failure WHERE ctid = (SELECT ctid FROM login_failure WHERE key = $1 AND failed_at = $2 LIMIT 1)`, [key, new Date(Number(attempt))]);
  }

  async clear(key: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM login_failure WHERE key = $1`, [key]);
  }
}
