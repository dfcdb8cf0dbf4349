import { DependencyHealth } from '../../src/health/dependency-health';
import { createLogger } from '../../src/logger';
import { LONGEST_WINDOW_MS, type LoginFailureStore, SqlLoginFailureStore } from '../../src/attempts/login-failure-store';
import { RedisLoginFailureStore } from '../../src/attempts/redis-login-failure-store';
import { RedisQuotaStore } from '../../src/quota/redis-quota-store';
import { Readiness } from '../../src/health/readiness';
import { SignUpLimit } from '../../src/services/attempt-limit';
import { LoginThrottle } from '../../src/services/login-throttle';
import { LocalRedis } from '../support/redis-server';
import { openTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * The log-in limiter of two server instances: each has its own LoginThrottle and its own store
 * object, over the same database or the same Redis, as two processes would. What one counts, the
 * other refuses; a success on one clears the account on both; a restart (a new throttle) forgets nothing;
 * attempts racing on both are held to the limit exactly.
 */
const LIMITS = { perAccount: 3, perAddress: 5, windowMs: 60_000 };
let now = 0;

function sharedLimiterTests(twoStores: () => [LoginFailureStore, LoginFailureStore]) {
  const instances = () => twoStores().map((store) => new LoginThrottle(LIMITS, store, () => now)) as [LoginThrottle, LoginThrottle];
  let n = 0;
  const email = () => `user${++n}-${Date.now()}@example.com`;
  /** a failed password check: the place it took is kept */
  const fail = async (t: LoginThrottle, who: string, address: string) => void (await t.admit(who, address));
  const granted = (outcomes: PromiseSettledResult<unknown>[]) => outcomes.filter((o) => o.status === 'fulfilled').length;

  it('refuses on one instance an account that failed from an address on the other, until its failures leave the window', async () => {
    const [a, b] = instances();
    const who = email();
    const address = `10.0.${n}.1`;
    await fail(a, who, address);
    await fail(b, who, address);
    await fail(a, who, address);
    await expect(b.admit(who, address)).rejects.toThrow(/Too many failed log-ins/);
    await expect(a.admit(who, address)).rejects.toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
    // its owner, elsewhere, is not refused
    await expect(a.admit(who, '10.0.0.4')).resolves.toBeDefined();
    await expect(b.admit(email(), address)).resolves.toBeDefined();
    now += LIMITS.windowMs;
    await expect(b.admit(who, address)).resolves.toBeDefined();
  });

  it('counts an address across instances, and a success on one clears the account (not the address) on both', async () => {
    const [a, b] = instances();
    const address = `10.1.${n}.9`;
    const who = email();
    await fail(a, who, address);
    await fail(b, who, address);
    await (await b.admit(who, address)).succeeded();
    await fail(a, who, address);
    await expect(a.admit(who, address)).resolves.toBeDefined();
    await fail(b, email(), address);
    await expect(b.admit(email(), address)).rejects.toThrow(/Too many/);
    // a restarted instance starts with the same counts
    const [restarted] = instances();
    await expect(restarted.admit(email(), address)).rejects.toThrow(/Too many/);
  });

  it('holds 40 attempts racing on two instances to the limits exactly: of an account, and of an address', async () => {
    const [a, b] = instances();
    const who = email();
    const address = `10.2.${n}.7`;
    expect(granted(await Promise.allSettled(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).admit(who, address))))).toBe(LIMITS.perAccount);
    const other = `10.3.${n}.7`;
    expect(granted(await Promise.allSettled(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).admit(email(), other))))).toBe(LIMITS.perAddress);
  });

  it('holds sign-ups racing on two instances to the address’s limit', async () => {
    const [a, b] = twoStores().map((store) => new SignUpLimit({ perAddress: 5, windowMs: 3600_000 }, store, () => now));
    const address = `10.4.${n}.2`;
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).admit(address)));
    expect(granted(outcomes)).toBe(5);
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many sign-ups from this address: the limit is 5 in 60 minutes; try again in 60 minute/) });
    // a sign-up the server could not serve (its password queue full) gives its place back
    await (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
    await expect(b.admit(address)).resolves.toBeDefined();
    await expect(a.admit(address)).rejects.toThrow(/Too many sign-ups/);
  });
}

beforeEach(() => (now = Date.UTC(2026, 10, 24, 12)));

describe('in the database (PostgreSQL, or the embedded one)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db?.close());
  sharedLimiterTests(() => [new SqlLoginFailureStore(db.dataSource), new SqlLoginFailureStore(db.dataSource)]);

  it('forgets attempts older than the longest window as new ones come', async () => {
    const store = new SqlLoginFailureStore(db.dataSource);
    const allow = (key: string) => [{ key, limit: 10 }];
    await store.reserve(allow('account:old@example.com'), now, now - LIMITS.windowMs);
    await store.reserve(allow('account:new@example.com'), now + LONGEST_WINDOW_MS, now + LONGEST_WINDOW_MS - LIMITS.windowMs);
    const [{ count }] = await db.dataSource.query(`SELECT count(*)::int AS count FROM login_failure WHERE key = 'account:old@example.com'`);
    expect(count).toBe(0);
  });
});

describe('in Redis (REDIS_URL), on the quota counters’ connection', () => {
  let redis: LocalRedis;
  const connections: RedisQuotaStore[] = [];
  beforeAll(async () => {
    redis = await LocalRedis.start();
  });
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await redis?.stop();
  });
  const connect = () => {
    const store = new RedisQuotaStore(redis.url, new DependencyHealth('Redis', new Readiness(), createLogger('silent')));
    connections.push(store);
    return new RedisLoginFailureStore(store);
  };
  sharedLimiterTests(() => [connect(), connect()]);
});
