import Redis from 'ioredis';
import { QuotaService } from '../../src/quota/quota.service';
import { SqlQuotaStore } from '../../src/quota/quota-store';
import { WriteBehindQuotaStore } from '../../src/quota/write-behind-quota-store';
import { startTestApp, type TestApp } from '../support/test-app';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = '2026-11-22';
const NEXT_MIDNIGHT = Math.floor(Date.parse('2026-11-23T00:00:00Z') / 1000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
});
afterAll(() => t.close());
beforeEach(() => t.setNow(NOW));

let users = 0;
async function user(tier: 'pilot' | 'pro') {
  const email = `quota${++users}@example.com`;
  const key = await t.userWithKey(tier, email);
  return { email, key, accountId: await t.accountIdOf(email) };
}
const use = (accountId: number, kind: 'calls' | 'batches' | 'predictions', amount: number, limit: number) =>
  t.services.quotas.store.take(accountId, DAY, kind, amount, limit);
const predict = (key: string, id = 2900) => t.http().get(`/api/v1/predict/${id}`).set('authorization', `Bearer ${key}`);
const batch = (key: string, ids: number[]) => t.http().post('/api/v1/predictions/batch').set('authorization', `Bearer ${key}`).send({ bill_ids: ids });

describe('rate-limit headers', () => {
  it('tell the tightest limit touched, the next UTC midnight, and the IETF policy', async () => {
    const { key } = await user('pilot');
    const res = await predict(key);
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('99');
    expect(res.headers['x-ratelimit-reset']).toBe(String(NEXT_MIDNIGHT));
    expect(res.headers['ratelimit-policy']).toBe('"calls";q=1000;w=86400, "batches";q=10;w=86400, "predictions";q=100;w=86400');
    expect(res.headers.ratelimit).toBe('"predictions";r=99;t=43200');
  });

  it('are on GraphQL responses too, where only the API call counts for a non-prediction query', async () => {
    const { key } = await user('pilot');
    const res = await t.graphql('{ me { id } }', { key });
    expect(res.headers['x-ratelimit-remaining']).toBe('999');
    expect(res.headers.ratelimit).toBe('"calls";r=999;t=43200');
  });
});

describe('daily limits, per user across all their keys', () => {
  it('share the prediction limit between keys and answer 429 with which limit and when it resets', async () => {
    const { email, key, accountId } = await user('pilot');
    const second = (await t.services.apiKeys.create(email, 'second')).api_key;
    await use(accountId, 'predictions', 98, 100);
    expect((await predict(key)).status).toBe(200);
    expect((await predict(second)).status).toBe(200);
    const refused = await predict(second);
    expect(refused.status).toBe(429);
    // the moment in words a reader can act on (the headers keep the machine's Unix seconds)
    expect(refused.body).toEqual({ detail: 'Daily prediction limit reached: the pilot tier allows 100 a day; it resets at midnight UTC (00:00 on 23 November in London)' });
    expect(refused.headers['retry-after']).toBe('43200');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-ratelimit-reset']).toBe(String(NEXT_MIDNIGHT));
    const gql = await t.graphql('{ prediction(billId: 2900) { billId } }', { key });
    expect(gql.status).toBe(429);
    expect(gql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  });

  it('say when a limit resets in London time in summer too, where midnight UTC is 01:00', async () => {
    t.setNow(new Date('2026-07-01T12:00:00Z'));
    const { key, accountId } = await user('pilot');
    await t.services.quotas.store.take(accountId, '2026-07-01', 'predictions', 100, 100);
    const refused = await predict(key);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe('Daily prediction limit reached: the pilot tier allows 100 a day; it resets at midnight UTC (01:00 on 2 July in London)');
  });

  it('block the batch items past the prediction limit, in request order, without charging for errors', async () => {
    const { key, accountId } = await user('pilot');
    await use(accountId, 'predictions', 97, 100);
    const res = await batch(key, [2900, 999999, 26, 144, 3089, 40]);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['success', 'error', 'success', 'success', 'blocked', 'blocked']);
    expect(res.body.summary).toEqual({ total: 6, success: 3, errors: 1, blocked: 2 });
    expect(res.body.results[4]).toEqual({ bill_id: 3089, status: 'blocked', detail: expect.stringMatching(/Daily prediction limit reached/) });
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('allow 10 batch requests a day on Pilot, then 429; a refused batch still counts as an API call', async () => {
    const { key, accountId } = await user('pilot');
    await use(accountId, 'batches', 9, 10);
    expect((await batch(key, [26])).status).toBe(200);
    const refused = await batch(key, [26]);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/Daily batch request limit reached: the pilot tier allows 10 a day/);
    expect((await use(accountId, 'calls', 0, 1000)).used).toBe(2);
  });

  it('allow 1,000 API calls a day on Pilot, for every endpoint', async () => {
    const { key, accountId } = await user('pilot');
    await use(accountId, 'calls', 1000, 1000);
    const rest = await t.http().get('/api/v1/predictions/imminent').set('authorization', `Bearer ${key}`);
    expect(rest.status).toBe(429);
    expect(rest.body.detail).toMatch(/Daily API call limit reached: the pilot tier allows 1,000 a day/);
    expect((await t.graphql('{ me { id } }', { key })).status).toBe(429);
  });

  it('count imminent as an API call only', async () => {
    const { key, accountId } = await user('pilot');
    expect((await t.http().get('/api/v1/predictions/imminent?days_ahead=30&min_probability=0').set('authorization', `Bearer ${key}`)).status).toBe(200);
    expect((await use(accountId, 'calls', 0, 1000)).used).toBe(1);
    expect((await use(accountId, 'predictions', 0, 100)).used).toBe(0);
  });

  it('give Pro 100 batch requests and no practical prediction limit', async () => {
    const { key, accountId } = await user('pro');
    await use(accountId, 'predictions', 5000, 1_000_000);
    expect((await predict(key)).status).toBe(200);
    await use(accountId, 'batches', 100, 100);
    expect((await batch(key, [26])).status).toBe(429);
  });

  it('reset at midnight UTC', async () => {
    const { key, accountId } = await user('pilot');
    await use(accountId, 'predictions', 100, 100);
    expect((await predict(key)).status).toBe(429);
    t.setNow(new Date('2026-11-23T00:00:01Z'));
    const res = await predict(key);
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-reset']).toBe(String(Math.floor(Date.parse('2026-11-24T00:00:00Z') / 1000)));
  });
});

describe('counters are atomic', () => {
  it('let exactly 10 of 50 concurrent requests through when 10 predictions are left', async () => {
    const { key, accountId } = await user('pilot');
    await use(accountId, 'predictions', 90, 100);
    const statuses = (await Promise.all(Array.from({ length: 50 }, () => predict(key)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    expect((await use(accountId, 'predictions', 0, 100)).used).toBe(100);
  });

  it('survive a restart: a new service on the same database sees the same counts', async () => {
    const { accountId } = await user('pilot');
    await use(accountId, 'predictions', 42, 100);
    await t.services.quotas.store.flush?.(); // what a shutdown does
    const restarted = new QuotaService(t.db.dataSource, { embedded: t.db.kind === 'pglite' }, () => NOW);
    expect(restarted.store).toBeInstanceOf(t.db.kind === 'pglite' ? WriteBehindQuotaStore : SqlQuotaStore);
    expect((await restarted.store.take(accountId, DAY, 'predictions', 0, 100)).used).toBe(42);
    await restarted.close();
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;
(REDIS_URL ? describe : describe.skip)('counters in Redis (REDIS_URL), shared by several server processes', () => {
  let redisApp: TestApp;
  beforeAll(async () => {
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys('bill-progress:quota:*');
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    redisApp = await startTestApp({ trainModel: true, redisUrl: REDIS_URL });
  });
  afterAll(() => redisApp.close());

  it('let exactly 10 of 50 concurrent requests through across two instances, and survive a restart', async () => {
    const email = `redis${Date.now()}@example.com`;
    const key = await redisApp.userWithKey('pilot', email);
    const accountId = await redisApp.accountIdOf(email);
    redisApp.setNow(NOW);
    await redisApp.services.quotas.store.take(accountId, DAY, 'predictions', 90, 100);
    // a second instance: its own QuotaService on the same Redis
    const other = new QuotaService(redisApp.db.dataSource, { redisUrl: REDIS_URL, embedded: false }, () => NOW);
    const viaOther = Array.from({ length: 25 }, () => other.store.take(accountId, DAY, 'predictions', 1, 100).then((r) => (r.granted ? 200 : 429)));
    const viaHttp = Array.from({ length: 25 }, () => redisApp.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${key}`).then((r) => r.status));
    const statuses = await Promise.all([...viaOther, ...viaHttp]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    await other.close();
    const restarted = new QuotaService(redisApp.db.dataSource, { redisUrl: REDIS_URL, embedded: false }, () => NOW);
    expect((await restarted.store.take(accountId, DAY, 'predictions', 0, 100)).used).toBe(100);
    await restarted.close();
  });
});

describe('the burst limit per root field', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ billIds: [26], burstLimit: 3 });
  });
  afterAll(() => limited.close());

  it('refuses a fourth call of one field within 10 seconds with 429, and leaves other fields alone', async () => {
    const key = await limited.userWithKey('pro');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await limited.graphql('{ me { id } }', { key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await limited.graphql('{ me { id } }', { key });
    expect(refused.body.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' }, message: expect.stringMatching(/^Burst limit reached: at most 3 calls of the same operation every 10 seconds; retry in \d+ seconds$/) });
    expect((await limited.graphql('{ sessions { id } }', { key })).status).toBe(200);
    // another user has a burst allowance of their own
    expect((await limited.graphql('{ me { id } }', { key: await limited.userWithKey('pro') })).status).toBe(200);
  });

  it('counts every aliased copy of a root field before any runs, and refuses the request whole', async () => {
    const key = await limited.userWithKey('pro');
    const refused = await limited.graphql('{ a: me { id } b: me { id } c: me { id } d: me { id } }', { key });
    expect(refused.status).toBe(429);
    expect(refused.body.data).toBeUndefined();
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
    // nothing of the refused request was recorded: three copies still fit
    expect((await limited.graphql('{ a: me { id } b: me { id } c: me { id } }', { key })).status).toBe(200);
    expect((await limited.graphql('{ me { id } }', { key })).status).toBe(429);
  });

  it('REST: a 429 names the burst limit in REST words, with its size, 0 left and when its window frees room', async () => {
    const key = await limited.userWithKey('pro');
    // a route that needs no model: this app has none trained
    const list = () => limited.http().get('/api/v1/dashboard/watchlists').set('authorization', `Bearer ${key}`);
    for (let i = 0; i < 3; i++) expect((await list()).status).toBe(200);
    const before = Math.floor(Date.now() / 1000);
    const refused = await list();
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Burst limit reached: at most 3 calls of the same operation every 10 seconds; retry in \d+ seconds$/);
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
    const reset = Number(refused.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(before);
    expect(reset).toBeLessThanOrEqual(before + 11);
  });
});
