import type { DataSource } from 'typeorm';

/**
 * What a retention rule is (src/jobs/retention-rules.ts and mail-retention-rules.ts say which
 * there are), and the bounded deletes they are made of.
 */
export interface RetentionRule {
  table: string;
  /** Runs one bounded delete after another, yielding how many rows each removed, until nothing is left to remove. */
  batches(db: DataSource, now: Date, limit: number): AsyncGenerator<number>;
}

/** Runs a `WITH gone AS (DELETE … RETURNING 1)` statement: the same answer shape on PGlite and PostgreSQL. */
export async function removed(db: DataSource, sql: string, params: unknown[]): Promise<number> {
  const rows = (await db.query(`WITH gone AS (${sql} RETURNING 1) SELECT count(*)::int AS removed FROM gone`, params)) as { removed: number }[];
  return rows[0].removed;
}

/** Repeats a bounded delete until it removes fewer than `limit` rows. */
export async function* untilShort(limit: number, run: () => Promise<number>): AsyncGenerator<number> {
  for (;;) {
    const count = await run();
    yield count;
    if (count < limit) return;
  }
}
