import * as WEB from '../../web/src/operations';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Floods of the dashboard's password operations from one address, sent at once through /graphql:
 * the log-in throttle and the sign-up limit hold them to the same numbers as requests sent one by
 * one (issue #30: the throttle used to check first and count after, so 40 racing guesses all got a
 * password check).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PASSWORD = 'correct horse battery';
const send = (query: string, input: { email: string; password: string }) => t.http().post('/graphql').set('content-type', 'application/json').send({ query, variables: { input } });
const statuses = (responses: { status: number }[]) => responses.map((r) => r.status).sort();

it('gives 40 wrong passwords sent at once for one account exactly 10 password checks (401) and 30 refusals (429)', async () => {
  await t.services.sessions.signUp('target@example.com', PASSWORD);
  const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => send(WEB.LOG_IN, { email: 'target@example.com', password: `guess number ${i}` })));
  expect(statuses(responses)).toEqual([...Array(10).fill(401), ...Array(30).fill(429)]);
  const refused = responses.find((r) => r.status === 429)!;
  expect(refused.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^Too many failed log-ins: try again in 15 minute/), extensions: { code: 'RATE_LIMITED' } });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
  // the right password too is refused at this address until the guesses leave the window
  expect((await send(WEB.LOG_IN, { email: 'target@example.com', password: PASSWORD })).status).toBe(429);
});

it('lets an address sign up 5 accounts an hour, however they arrive, and refuses the rest with 429, a detail and Retry-After', async () => {
  const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => send(WEB.SIGN_UP, { email: `flood${i}@example.com`, password: PASSWORD })));
  expect(statuses(responses)).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
  const refused = responses.find((r) => r.status === 429)!;
  expect(refused.body.errors[0]).toMatchObject({
    message: expect.stringMatching(/^Too many sign-ups from this address: the limit is 5 in 60 minutes; try again in 60 minute\(s\)$/),
    extensions: { code: 'RATE_LIMITED' },
  });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(59 * 60);
  const [{ count }] = await t.db.dataSource.query(`SELECT count(*)::int AS count FROM account WHERE email LIKE 'flood%'`);
  expect(count).toBe(5);
  // a malformed sign-up is refused for what it is, not counted
  expect((await send(WEB.SIGN_UP, { email: 'short@example.com', password: 'abc' })).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
});
