import type { DataSource } from 'typeorm';
import { keepWithin } from '../common/bounded-map';

/**
 * Where the log-in limiter keeps its failed log-ins (src/services/login-throttle.ts): beside the
 * quotas, so every instance sees the same counts (the database table, or Redis when the quotas are
 * there), and a restart forgets nothing. Keys are `account:<email>|<ip>` (`account:<email>` when the address is unknown) and `address:<ip>`; times are
 * milliseconds since the epoch.
 */
export interface LoginFailureStore {
  /** The key's failures later than `since`, oldest first. */
  recent(key: string, since: number): Promise<number[]>;
  /** Records one failure at `at` for each key; failures at or before `since` may be forgotten. */
  add(keys: string[], at: number, since: number): Promise<void>;
  /** Forgets the key's failures. */
  clear(key: string): Promise<void>;
}

/** Keys kept at most by the memory store (the oldest forgotten first): an attacker cannot fill the memory. */
const MAX_KEYS = 100_000;

/** In one process's memory: for unit tests, and nothing else. */
export class MemoryLoginFailureStore implements LoginFailureStore {
  private readonly failures = new Map<string, number[]>();

  async recent(key: string, since: number): Promise<number[]> {
    return (this.failures.get(key) ?? []).filter((t) => t > since);
  }

  async add(keys: string[], at: number, since: number): Promise<void> {
    for (const key of keys) {
      const times = [...(await this.recent(key, since)), at];
      keepWithin(this.failures, key, times, MAX_KEYS, { refresh: true });
    }
  }

  async clear(key: string): Promise<void> {
    this.failures.delete(key);
  }
}

/** In the `login_failure` table (PostgreSQL, or the embedded database): one row a failure, pruned as the window moves. */
export class SqlLoginFailureStore implements LoginFailureStore {
  constructor(private readonly dataSource: DataSource) {}

  async recent(key: string, since: number): Promise<number[]> {
    const rows = (await this.dataSource.query(`SELECT failed_at FROM login_failure WHERE key = $1 AND failed_at > $2 ORDER BY failed_at`, [key, new Date(since)])) as { failed_at: Date | string }[];
    return rows.map((r) => new Date(r.failed_at).getTime());
  }

  async add(keys: string[], at: number, since: number): Promise<void> {
    await this.dataSource.query(`INSERT INTO login_failure (key, failed_at) SELECT unnest($1::text[]), $2::timestamptz`, [keys, new Date(at)]);
    await this.dataSource.query(`DELETE FROM login_failure WHERE failed_at <= $1`, [new Date(since)]);
  }

  async clear(key: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM login_failure WHERE key = $1`, [key]);
  }
}
