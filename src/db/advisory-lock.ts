import type { DataSource } from 'typeorm';

/** A PostgreSQL advisory lock's key: one bigint, or two integers (a kind of work and which one). */
export type AdvisoryLockKey = number | readonly [number, number];

/**
 * Runs `work` while holding a session-level advisory lock on a connection of its own, if no other
 * session holds it: of several instances on one PostgreSQL, one does the work. Never waits for the
 * lock. The lock is let go when the work ends, by the instance that got it. A null key (one
 * instance serves an embedded database) runs `work` with no lock.
 */
export async function whileHoldingAdvisoryLock<T>(dataSource: DataSource, key: AdvisoryLockKey | null, work: () => Promise<T>): Promise<{ held: true; result: T } | { held: false }> {
  if (key === null) return { held: true, result: await work() };
  const [args, placeholders] = typeof key === 'number' ? [[key], '$1'] : [[...key], '$1, $2'];
  const lock = dataSource.createQueryRunner();
  try {
    const [{ locked }] = (await lock.query(`SELECT pg_try_advisory_lock(${placeholders}) AS locked`, args)) as { locked: boolean }[];
    if (!locked) return { held: false };
    try {
      return { held: true, result: await work() };
    } finally {
      await lock.query(`SELECT pg_advisory_unlock(${placeholders})`, args).catch(() => undefined);
    }
  } finally {
    await lock.release();
  }
}
