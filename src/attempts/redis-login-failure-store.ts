import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Allowance, LoginFailureStore, Reservation } from './login-failure-store';

/*
 * The attempts in Redis, when the quota counters are there: every instance counts the same ones.
 */

/** A Redis connection with its rules for a Redis that is down: the quota counters' (src/quota/redis-quota-store.ts), named by shape so attempts know no quota. */
export interface RedisConnection {
  withConnection<T>(use: (redis: Redis) => Promise<T>): Promise<T>;
}

const keyOf = (key: string) => `bill-progress:login-failures:${key}`;

/**
 * Checks every key, then records the attempt under each, in one script: Redis runs it whole, so no
 * attempt of another instance comes between. KEYS: the keys; ARGV: at, since, member, then the
 * limits in the keys' order. Returns 0 when granted, else when the first full key has room again.
 */
const RESERVE = `
local at, since, member = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', since)
  local limit = tonumber(ARGV[3 + i])
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    return tonumber(oldest[2]) + (at - since)
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, at, member)
  redis.call('PEXPIRE', key, math.max(1, at - since))
end
return 0
`;

/**
 * Attempts in Redis, on the quota counters' connection (and its fail-fast rules: Redis down is a
 * 503): a sorted set per key, scored by time, trimmed to the window and expiring with it.
 */
export class RedisLoginFailureStore implements LoginFailureStore {
  constructor(private readonly quotas: RedisConnection) {}

  async reserve(allowances: Allowance[], at: number, since: number): Promise<Reservation> {
    // a member of its own: two attempts in the same millisecond are two
    const attempt = `${at}:${randomBytes(6).toString('base64url')}`;
    const keys = allowances.map((a) => keyOf(a.key));
    const retryAt = Number(await this.quotas.withConnection((redis) => redis.eval(RESERVE, keys.length, ...keys, at, since, attempt, ...allowances.map((a) => a.limit))));
    return retryAt ? { granted: false, retryAt } : { granted: true, attempt };
  }

  async release(key: string, attempt: string): Promise<void> {
    await this.quotas.withConnection((redis) => redis.zrem(keyOf(key), attempt));
  }

  async clear(key: string): Promise<void> {
    await this.quotas.withConnection((redis) => redis.del(keyOf(key)));
  }
}
