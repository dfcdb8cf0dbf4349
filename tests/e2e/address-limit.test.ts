import * as WEB from '../../web/src/operations';
import { startTestApp, type TestApp } from '../support/test-app';

// Requests without a valid key, and failing ones, are limited per client address (every request
// here comes from the same loopback address).
// Each block has an app of its own, opened after the one before it closed: typeorm-pglite keeps one
// embedded database per process, so an app closed while another is open takes the other's with it.
describe('requests without a valid key, and failing ones', () => {
  let t: TestApp;
  let key: string;
  const LIMIT = 5;
  beforeAll(async () => {
    t = await startTestApp({ anonRateLimit: LIMIT });
    key = await t.userWithKey('pilot');
  });
  afterAll(() => t.close());

  const forgedKey = 'bp_0badc0de_' + 'x'.repeat(43);

  it('never counts successful requests with a valid key', async () => {
    for (let i = 0; i < LIMIT + 3; i++) expect((await t.graphql('{ me { email } }', { key })).status).toBe(200);
    expect((await t.graphql('{ serviceStatus { today } }')).status).toBe(200);
  });

  it('refuses an address past its allowance with 429, Retry-After and a detail, on REST and on GraphQL', async () => {
    // one anonymous request was spent above; the rest of the allowance goes on forged keys
    for (let i = 1; i < LIMIT; i++) expect((await t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${forgedKey}`)).status).toBe(401);
    const rest = await t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${forgedKey}`);
    expect(rest.status).toBe(429);
    expect(Number(rest.headers['retry-after'])).toBeGreaterThan(0);
    // the headers of the limit that refused it: its size a minute, nothing left, when one request is allowed again
    expect(rest.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(rest.headers['x-ratelimit-remaining']).toBe('0');
    const reset = Number(rest.headers['x-ratelimit-reset']) - Date.now() / 1000;
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60 / LIMIT + 1);
    expect(rest.body).toEqual({ detail: expect.stringMatching(/^Too many requests without a valid API key, or failing, from this address: the limit is 5 a minute; retry in \d+ s$/) });

    const graphql = await t.graphql('{ serviceStatus { today } }');
    expect(graphql.status).toBe(429);
    expect(graphql.headers['retry-after']).toBeDefined();
    expect(graphql.body.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' }, message: expect.stringMatching(/the limit is 5 a minute/) });
  });

  it('still serves a key verified moments ago from that address', async () => {
    expect((await t.graphql('{ me { email } }', { key })).status).toBe(200);
    expect((await t.http().get('/api/v1/predict/abc').set('authorization', `Bearer ${key}`)).status).toBe(400);
  });
});

describe('requests a door refuses before the pipeline (405, 413, malformed JSON)', () => {
  let app: TestApp;
  let appKey: string;
  beforeAll(async () => {
    app = await startTestApp({ anonRateLimit: 4 });
    appKey = await app.userWithKey('pilot');
  });
  afterAll(() => app.close());

  const malformedBatch = () => app.http().post('/api/v1/predict/batch').set('content-type', 'application/json').send('{"bill_ids": [29');
  const malformedGraphql = () => app.http().post('/graphql').set('content-type', 'application/json').send('{"query": ');

  it('count against the address, and past its allowance are refused with 429 before the body is read', async () => {
    expect((await app.graphql('{ me { email } }', { key: appKey })).status).toBe(200); // a key verified moments ago
    expect((await malformedBatch()).status).toBe(400);
    expect((await app.http().delete('/api/v1/predict/2900')).status).toBe(405);
    expect((await malformedGraphql()).status).toBe(400);
    const oversized = await app.http().post('/graphql').set('content-type', 'application/json').send(JSON.stringify({ query: `{ serviceStatus { today } } # ${'x'.repeat(200_000)}` }));
    expect(oversized.status).toBe(413);

    const rest = await malformedBatch();
    expect(rest.status).toBe(429);
    expect(rest.body.detail).toMatch(/^Too many requests without a valid API key, or failing, from this address: the limit is 4 a minute/);
    expect(rest.headers['x-ratelimit-limit']).toBe('4');
    const graphql = await malformedGraphql();
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' }, message: expect.stringMatching(/the limit is 4 a minute/) });
    expect(graphql.headers['retry-after']).toBeDefined();
  });

  it('still answers a key verified moments ago from that address, its mistakes included', async () => {
    const res = await app.http().post('/api/v1/predict/batch').set('authorization', `Bearer ${appKey}`).set('content-type', 'application/json').send('{"bill_ids": [29');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'The request body is not valid JSON' });
  });
});

describe('the dashboard’s requests (session cookie)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ anonRateLimit: 6 });
  });
  afterAll(() => app.close());

  it('count against the address, successful ones included: they are no API calls, so this is their limit', async () => {
    await app.services.sessions.signUp('clicker@example.com', 'a long enough password');
    const logIn = await app.http().post('/graphql').set('content-type', 'application/json').send({ query: WEB.LOG_IN, variables: { input: { email: 'clicker@example.com', password: 'a long enough password' } } });
    expect(logIn.status).toBe(200);
    const cookie = (logIn.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('bp_session='))!.split(';')[0];
    const page = () => app.http().post('/graphql').set('content-type', 'application/json').set('cookie', cookie).send({ query: WEB.ACCOUNT });
    for (let i = 0; i < 5; i++) expect((await page()).status).toBe(200);
    const refused = await page();
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' }, message: expect.stringMatching(/the limit is 6 a minute/) });
  });
});

describe('a request error answered 200 to a client that reads only application/json', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ anonRateLimit: 3 });
  });
  afterAll(() => app.close());

  it('still counts as failing: only the wire says 200', async () => {
    const key = await app.userWithKey('pilot');
    for (let i = 0; i < 3; i++) {
      const res = await app.http().post('/graphql').set('authorization', `Bearer ${key}`).set('accept', 'application/json').send({ query: 'query A { __typename }', operationName: 'B' });
      expect(res.status).toBe(200);
      expect(res.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT' });
    }
    expect((await app.graphql('{ serviceStatus { today } }')).status).toBe(429);
  });
});
