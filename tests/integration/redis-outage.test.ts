import { LocalRedis } from '../support/redis-server';
import { startTestApp, type TestApp } from '../support/test-app';

/** A request that hangs instead of failing fast would fail the test rather than stall it. */
const NO_HANG = { response: 3_000, deadline: 5_000 };

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

let redis: LocalRedis;
let t: TestApp;
let key: string;
beforeAll(async () => {
  redis = await LocalRedis.start();
  t = await startTestApp({ trainModel: true, redisUrl: redis.url });
  key = await t.userWithKey('pilot');
});
afterAll(async () => {
  await redis?.stop();
  await t?.close();
});

const predict = () => t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${key}`).timeout(NO_HANG);
const graphqlMe = () => t.http().post('/graphql').set('authorization', `Bearer ${key}`).send({ query: '{ me { id } }' }).timeout(NO_HANG);
const readyz = () => t.http().get('/readyz').timeout(NO_HANG);
const logged = (msg: string) => t.logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg);

describe('with REDIS_URL set, Redis stopped and started during the run', () => {
  it('answers 503 naming Redis while it is down, says so once in the log, and recovers by itself', async () => {
    await waitFor(async () => (await readyz()).status === 200, 'ready');
    expect((await predict()).status).toBe(200);

    await redis.stop();
    await waitFor(async () => (await readyz()).status === 503, '/readyz to turn 503');
    const notReady = await readyz();
    expect(notReady.body.detail).toMatch(/^Not ready: Redis is unreachable \(\w+/);

    for (let i = 0; i < 3; i++) {
      const rest = await predict();
      expect(rest.status).toBe(503);
      expect(rest.body).toEqual({ detail: 'Service unavailable: Redis is unreachable; retry shortly' });
    }
    const gql = await graphqlMe();
    expect(gql.status).toBe(503);
    expect(gql.body.errors[0]).toMatchObject({ message: 'Service unavailable: Redis is unreachable; retry shortly', extensions: { code: 'SERVICE_UNAVAILABLE' } });

    // one line for the change of state, however many requests and reconnection attempts there were
    expect(logged('Redis is unreachable; retrying')).toHaveLength(1);
    expect(t.logLines.filter((l) => l.includes('"stack"'))).toEqual([]);

    await redis.start();
    await waitFor(async () => (await readyz()).status === 200, '/readyz to recover');
    expect((await predict()).status).toBe(200);
    expect((await graphqlMe()).status).toBe(200);
    expect(logged('Redis is reachable again')).toHaveLength(1);
  });
});
