import type { DataSource } from 'typeorm';
import type { QuotaKind } from './tier-limits';

export interface QuotaTake {
  /** how much of what was asked was granted (0 when the limit was already reached) */
  granted: number;
  /** used today after this take */
  used: number;
}

/** Daily counters that never go past their limit, however many requests race for the last units. */
export interface QuotaStore {
  /** Grants up to `amount` without taking `used` past `limit`. */
  take(accountId: number, day: string, kind: QuotaKind, amount: number, limit: number): Promise<QuotaTake>;
  /** Gives back units a refused request had taken. */
  refund(accountId: number, day: string, kind: QuotaKind, amount: number): Promise<void>;
  /** Makes every count so far durable (a no-op for stores that write through). */
  flush?(): Promise<void>;
  close?(): Promise<void>;
}

/**
 * Counters in the database: one statement inserts or raises the row under its lock, and writes
 * what it granted beside the count, so the grant is known without a second read. Survives
 * restarts; shared by every instance on one PostgreSQL.
 */
export class SqlQuotaStore implements QuotaStore {
  constructor(private readonly dataSource: DataSource) {}

  async take(accountId: number, day: string, kind: QuotaKind, amount: number, limit: number): Promise<QuotaTake> {
    const rows = (await this.dataSource.query(
      `INSERT INTO quota_counter (account_id, day, kind, used, last_grant)
       VALUES ($1, $2, $3, LEAST($4::int, $5::int), LEAST($4::int, $5::int))
       ON CONFLICT (account_id, day, kind) DO UPDATE SET
         last_grant = LEAST($4::int, GREATEST(0, $5::int - quota_counter.used)),
         used = quota_counter.used + LEAST($4::int, GREATEST(0, $5::int - quota_counter.used))
       RETURNING used, last_grant`,
      [accountId, day, kind, amount, limit],
    )) as { used: number; last_grant: number }[];
    return { granted: rows[0].last_grant, used: rows[0].used };
  }

  async refund(accountId: number, day: string, kind: QuotaKind, amount: number): Promise<void> {
    await this.dataSource.query(`UPDATE quota_counter SET used = GREATEST(0, used - $4) WHERE account_id = $1 AND day = $2 AND kind = $3`, [accountId, day, kind, amount]);
  }
}
