import type { DataSource } from 'typeorm';
import type { QuotaStore, QuotaTake } from './quota-store';
import type { QuotaKind } from './tier-limits';

/** How often counts are written to the database; a crash loses at most this much counting. */
export const FLUSH_INTERVAL_MS = 500;

interface Counter {
  used: number;
  dirty: boolean;
}

/**
 * Counters for the embedded database, where one process owns the data directory: the counts
 * live in memory, where a take is a synchronous read-cap-raise that no other request can
 * interleave with (so atomic), and are written to quota_counter every FLUSH_INTERVAL_MS and on
 * shutdown (so they survive restarts). A database round trip per take would cap the whole
 * service at a few hundred requests a second on PGlite, which runs one statement at a time.
 */
export class WriteBehindQuotaStore implements QuotaStore {
  private readonly counters = new Map<string, Counter>();
  private readonly loading = new Map<string, Promise<Counter>>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), FLUSH_INTERVAL_MS).unref();
  }

  private key = (accountId: number, day: string, kind: QuotaKind) => `${accountId}|${day}|${kind}`;

  /** The counter, read from the database once; concurrent first uses share the one read. */
  private async counter(accountId: number, day: string, kind: QuotaKind): Promise<Counter> {
    const key = this.key(accountId, day, kind);
    const known = this.counters.get(key);
    if (known) return known;
    let load = this.loading.get(key);
    if (!load) {
      load = (async () => {
        const rows = (await this.dataSource.query('SELECT used FROM quota_counter WHERE account_id = $1 AND day = $2 AND kind = $3', [accountId, day, kind])) as { used: number }[];
        const counter = { used: rows[0]?.used ?? 0, dirty: false };
        this.counters.set(key, counter);
        this.loading.delete(key);
        return counter;
      })();
      this.loading.set(key, load);
    }
    return load;
  }

  async take(accountId: number, day: string, kind: QuotaKind, amount: number, limit: number): Promise<QuotaTake> {
    const counter = await this.counter(accountId, day, kind);
    // From here to the return nothing awaits: no other take can run in between.
    const granted = Math.min(amount, Math.max(0, limit - counter.used));
    if (granted > 0) {
      counter.used += granted;
      counter.dirty = true;
    }
    return { granted, used: counter.used };
  }

  async refund(accountId: number, day: string, kind: QuotaKind, amount: number): Promise<void> {
    const counter = await this.counter(accountId, day, kind);
    counter.used = Math.max(0, counter.used - amount);
    counter.dirty = true;
  }

  /** Writes every changed count; forgets counters of past days once written. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const today = new Date().toISOString().slice(0, 10);
      const changed = [...this.counters].filter(([, c]) => c.dirty);
      if (changed.length) {
        for (const [, c] of changed) c.dirty = false;
        const values = changed.map(([key, c]) => [...key.split('|'), c.used]);
        await this.dataSource.query(
          `INSERT INTO quota_counter (account_id, day, kind, used, last_grant)
           SELECT a, d, k, u, 0 FROM unnest($1::int[], $2::date[], $3::text[], $4::int[]) AS t(a, d, k, u)
           ON CONFLICT (account_id, day, kind) DO UPDATE SET used = EXCLUDED.used`,
          [values.map((v) => Number(v[0])), values.map((v) => v[1]), values.map((v) => v[2]), values.map((v) => v[3])],
        );
      }
      for (const [key, c] of this.counters) if (!c.dirty && key.split('|')[1] < today) this.counters.delete(key);
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
