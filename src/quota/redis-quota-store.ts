import Redis from 'ioredis';
import type { QuotaStore, QuotaTake } from './quota-store';
import type { QuotaKind } from './tier-limits';

/** Reads, caps and raises the counter in one atomic step on the Redis server. */
const TAKE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local grant = math.min(tonumber(ARGV[1]), math.max(0, tonumber(ARGV[2]) - used))
if grant > 0 then used = redis.call('INCRBY', KEYS[1], grant) end
redis.call('EXPIRE', KEYS[1], 172800)
return {used, grant}
`;
const REFUND = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then redis.call('DECRBY', KEYS[1], math.min(used, tonumber(ARGV[1]))) end
return 0
`;

/**
 * Counters in Redis (REDIS_URL), shared by every server process; a key lives two days, past the
 * day it counts. Survives restarts and deploys of the service (not a restart of a Redis that keeps nothing on disk).
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  }

  private key = (accountId: number, day: string, kind: QuotaKind) => `bill-progress:quota:${day}:${accountId}:${kind}`;

  async take(accountId: number, day: string, kind: QuotaKind, amount: number, limit: number): Promise<QuotaTake> {
    const [used, granted] = (await this.redis.eval(TAKE, 1, this.key(accountId, day, kind), amount, limit)) as [number, number];
    return { used, granted };
  }

  async refund(accountId: number, day: string, kind: QuotaKind, amount: number): Promise<void> {
    await this.redis.eval(REFUND, 1, this.key(accountId, day, kind), amount);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
