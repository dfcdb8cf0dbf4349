import { startTestApp, type TestApp } from '../support/test-app';

// Requests without a valid key, and failing ones, are limited per client address (every request
// here comes from the same loopback address).
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
