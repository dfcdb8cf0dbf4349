import { DependencyHealth } from '../../src/health/dependency-health';
import { createLogger } from '../../src/logger';
import { type LoginFailureStore, SqlLoginFailureStore } from '../../src/quota/login-failure-store';
import { RedisLoginFailureStore } from '../../src/quota/redis-login-failure-store';
import { RedisQuotaStore } from '../../src/quota/redis-quota-store';
import { Readiness } from '../../src/health/readiness';
import { LoginThrottle } from '../../src/services/login-throttle';
import { LocalRedis } from '../support/redis-server';
import { openTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * The log-in limiter of two server instances: each has its own LoginThrottle and its own store
 * object, over the same database or the same Redis, as two processes would. What one counts, the
 * other refuses; a success on one clears the account on both; a restart (a new throttle) forgets nothing.
 */
const LIMITS = { perAccount: 3, perAddress: 5, windowMs: 60_000 };
let now = 0;

function sharedLimiterTests(twoStores: () => [LoginFailureStore, LoginFailureStore]) {
  const instances = () => twoStores().map((store) => new LoginThrottle(LIMITS, store, () => now)) as [LoginThrottle, LoginThrottle];
  let n = 0;
  const email = () => `user${++n}-${Date.now()}@example.com`;

  it('refuses on one instance an account that failed from an address on the other, until its failures leave the window', async () => {
    const [a, b] = instances();
    const who = email();
    const address = `10.0.${n}.1`;
    await a.failed(who, address);
    await b.failed(who, address);
    await a.failed(who, address);
    await expect(b.admit(who, address)).rejects.toThrow(/Too many failed log-ins/);
    await expect(a.admit(who, address)).rejects.toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
    // its owner, elsewhere, is not refused
    await expect(a.admit(who, '10.0.0.4')).resolves.toBeUndefined();
    await expect(b.admit(email(), address)).resolves.toBeUndefined();
    now += LIMITS.windowMs;
    await expect(b.admit(who, address)).resolves.toBeUndefined();
  });

  it('counts an address across instances, and a success on one clears the account (not the address) on both', async () => {
    const [a, b] = instances();
    const address = `10.1.${n}.9`;
    const who = email();
    await a.failed(who, address);
    await b.failed(who, address);
    await b.succeeded(who, address);
    await a.failed(who, address);
    await expect(a.admit(who, address)).resolves.toBeUndefined();
    await b.failed(email(), address);
    await a.failed(email(), address);
    await expect(b.admit(email(), address)).rejects.toThrow(/Too many/);
    // a restarted instance starts with the same counts
    const [restarted] = instances();
    await expect(restarted.admit(email(), address)).rejects.toThrow(/Too many/);
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

  it('forgets failures older than the window as new ones come', async () => {
    const store = new SqlLoginFailureStore(db.dataSource);
    await store.add(['account:old@example.com'], now, now - LIMITS.windowMs);
    await store.add(['account:new@example.com'], now + LIMITS.windowMs + 1, now + 1);
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
