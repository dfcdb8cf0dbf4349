import Redis from 'ioredis';
import type { DependencyHealth } from '../health/dependency-health';
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

/** A command that takes longer than this fails (503) instead of holding the request. */
const COMMAND_TIMEOUT_MS = 500;
/** How long a request made while the first connection is being opened waits for it. */
const FIRST_CONNECT_WAIT_MS = 1_000;
/** Reconnection backoff: 100 ms, doubling, at most 2 s between attempts, never giving up. */
const reconnectDelay = (attempt: number) => Math.min(100 * 2 ** Math.min(attempt, 5), 2_000);

/**
 * Counters in Redis (REDIS_URL), shared by every server process; a key lives two days, past the
 * day it counts. Survives restarts and deploys of the service (not a restart of a Redis that keeps nothing on disk).
 *
 * Fails fast: while the connection is down (its events drive `health`) a take answers 503 at once
 * instead of queueing, a command that hangs times out, and ioredis reconnects in the background.
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly redis: Redis;
  private readonly firstOutcome: Promise<void>;

  constructor(
    url: string,
    private readonly health: DependencyHealth,
  ) {
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: FIRST_CONNECT_WAIT_MS,
      retryStrategy: reconnectDelay,
    });
    this.firstOutcome = new Promise((resolve) => {
      this.redis.once('ready', resolve);
      this.redis.once('error', resolve);
    });
    this.redis.on('ready', () => health.up());
    // A listener is needed anyway: without one ioredis prints every failed reconnection attempt.
    this.redis.on('error', (error: Error) => health.down(error));
    this.redis.on('close', () => {
      if (health.isUp()) health.down(new Error('connection closed'));
    });
  }

  private key = (accountId: number, day: string, kind: QuotaKind) => `bill-progress:quota:${day}:${accountId}:${kind}`;

  /** Runs a command when the connection is up; any failure of Redis becomes a 503. */
  private async command<T>(run: () => Promise<T>): Promise<T> {
    if (this.health.isConnecting()) await Promise.race([this.firstOutcome, new Promise((resolve) => setTimeout(resolve, FIRST_CONNECT_WAIT_MS).unref())]);
    if (!this.health.isUp()) throw this.health.unavailable();
    try {
      return await run();
    } catch {
      throw this.health.unavailable();
    }
  }

  /** Runs another shared counter's commands (the log-in limiter's) on this connection, failing as fast. */
  withConnection<T>(use: (redis: Redis) => Promise<T>): Promise<T> {
    return this.command(() => use(this.redis));
  }

  async take(accountId: number, day: string, kind: QuotaKind, amount: number, limit: number): Promise<QuotaTake> {
    const [used, granted] = await this.command(() => this.redis.eval(TAKE, 1, this.key(accountId, day, kind), amount, limit) as Promise<[number, number]>);
    return { used, granted };
  }

  async refund(accountId: number, day: string, kind: QuotaKind, amount: number): Promise<void> {
    await this.command(() => this.redis.eval(REFUND, 1, this.key(accountId, day, kind), amount));
  }

  async close(): Promise<void> {
    // a connection we close ourselves is no outage to report
    this.redis.removeAllListeners('close');
    this.redis.removeAllListeners('error');
    this.redis.on('error', () => undefined);
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
