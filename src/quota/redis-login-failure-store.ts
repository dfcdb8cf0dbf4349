import { randomBytes } from 'node:crypto';
import type { LoginFailureStore } from './login-failure-store';
import type { RedisQuotaStore } from './redis-quota-store';

const keyOf = (key: string) => `bill-progress:login-failures:${key}`;

/**
 * Failed log-ins in Redis, on the quota counters' connection (and its fail-fast rules: Redis down
 * is a 503): a sorted set per key, scored by time, trimmed to the window and expiring with it.
 */
export class RedisLoginFailureStore implements LoginFailureStore {
  constructor(private readonly quotas: RedisQuotaStore) {}

  async recent(key: string, since: number): Promise<number[]> {
    const flat = await this.quotas.withConnection((redis) => redis.zrangebyscore(keyOf(key), `(${since}`, '+inf', 'WITHSCORES'));
    return flat.filter((_, i) => i % 2 === 1).map(Number);
  }

  async add(keys: string[], at: number, since: number): Promise<void> {
    await this.quotas.withConnection((redis) => {
      const batch = redis.multi();
      for (const key of keys) {
        // a member of its own: two failures in the same millisecond are two
        batch.zadd(keyOf(key), at, `${at}:${randomBytes(6).toString('base64url')}`);
        batch.zremrangebyscore(keyOf(key), '-inf', since);
        batch.pexpire(keyOf(key), Math.max(1, at - since));
      }
      return batch.exec();
    });
  }

  async clear(key: string): Promise<void> {
    await this.quotas.withConnection((redis) => redis.del(keyOf(key)));
  }
}
