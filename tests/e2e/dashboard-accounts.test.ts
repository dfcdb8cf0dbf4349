import * as WEB from '../../web/src/operations';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The dashboard's accounts and sessions over HTTP, as a browser would use them: a session cookie on
 * /graphql, with the dashboard's own documents (web/src/operations.ts), the only ones a cookie runs.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
});
afterAll(() => t.close());
beforeEach(() => t.setNow(new Date('2026-11-22T12:00:00Z')));

const ORIGIN = 'http://dashboard.test';
const HOST = 'dashboard.test';
const PASSWORD = 'correct horse battery';

/** A /graphql request from the dashboard's own page (Host and Origin agree), with the cookie when given. */
function gql(query: string, variables: Record<string, unknown> = {}, { cookie, origin = ORIGIN, key }: { cookie?: string; origin?: string | null; key?: string } = {}) {
  const req = t.http().post('/graphql').set('host', HOST).set('content-type', 'application/json');
  if (origin) req.set('origin', origin);
  if (cookie) req.set('cookie', cookie);
  if (key) req.set('authorization', `Bearer ${key}`);
  return req.send({ query, variables });
}

const { SIGN_UP, LOG_IN, SESSION } = WEB;
/** The signed-in account a cookie stands for, or null. */
const sessionOf = async (cookie: string) => (await gql(SESSION, {}, { cookie })).body.data.session?.account ?? null;

/** The `name=value` part of the response's session cookie, to send back as a browser would. */
function sessionCookie(res: { headers: Record<string, unknown> }): string {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const session = cookies.find((c) => c.startsWith('bp_session='));
  if (!session) throw new Error(`no session cookie in ${JSON.stringify(res.headers)}`);
  return session.split(';')[0];
}

let accounts = 0;
/** A new account (made by the service), signed in through the log-in form. */
async function signUp(email = `person${++accounts}@example.com`) {
  await t.services.sessions.signUp(email, PASSWORD);
  const res = await gql(LOG_IN, { input: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return { email, cookie: sessionCookie(res) };
}

describe('sign-up and log-in', () => {
  it('makes a Free account that can then log in, signing no one in, and keeps only a scrypt hash of the password', async () => {
    const res = await gql(SIGN_UP, { input: { email: 'Ann@Example.com', password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { signUp: true } });
    expect(res.headers['set-cookie']).toBeUndefined();
    const logIn = await gql(LOG_IN, { input: { email: 'ann@example.com', password: PASSWORD } });
    expect(logIn.body).toEqual({ data: { logIn: { email: 'ann@example.com', tier: 'FREE' } } });
    const cookie = (logIn.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('bp_session='))!;
    expect(cookie).toMatch(/^bp_session=[A-Za-z0-9_-]{43}; Path=\/; Expires=[^;]+ GMT; HttpOnly; SameSite=Lax$/);
    expect(await sessionOf(sessionCookie(logIn))).toEqual({ email: 'ann@example.com', tier: 'FREE' });
    const [{ password_hash: hash }] = await t.db.dataSource.query(`SELECT password_hash FROM account WHERE email = 'ann@example.com'`);
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain(PASSWORD);
    const [{ token_hash: tokenHash }] = await t.db.dataSource.query(`SELECT token_hash FROM dashboard_session s JOIN account a ON a.id = s.account_id WHERE a.email = 'ann@example.com'`);
    expect(tokenHash).not.toContain(sessionCookie(logIn).split('=')[1]);
    expect(t.logLines.join('')).not.toContain(PASSWORD);
  });

  it('refuses a short password with 400', async () => {
    const short = await gql(SIGN_UP, { input: { email: 'short@example.com', password: 'abc' } });
    expect(short.body.errors[0]).toMatchObject({ message: 'password must be between 10 and 200 characters', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('answers a taken email exactly as a new one, and leaves the existing account untouched (its password unchanged)', async () => {
    const { email } = await signUp();
    const fresh = await gql(SIGN_UP, { input: { email: `new-${email}`, password: 'another long password' } });
    const taken = await gql(SIGN_UP, { input: { email, password: 'another long password' } });
    expect(fresh.body).toEqual({ data: { signUp: true } });
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toEqual(fresh.body);
    expect(taken.headers['set-cookie']).toBeUndefined();
    expect((await gql(LOG_IN, { input: { email, password: 'another long password' } })).status).toBe(401);
    expect((await gql(LOG_IN, { input: { email, password: PASSWORD } })).status).toBe(200);
  });

  it('logs in with the right password, and answers a wrong password and an unknown email with the same message', async () => {
    const { email } = await signUp();
    const ok = await gql(LOG_IN, { input: { email, password: PASSWORD } });
    expect(ok.body.data.logIn).toEqual({ email, tier: 'FREE' });
    expect((await sessionOf(sessionCookie(ok))).email).toBe(email);
    const wrongPassword = await gql(LOG_IN, { input: { email, password: 'not the password' } });
    const unknownEmail = await gql(LOG_IN, { input: { email: 'nobody@example.com', password: PASSWORD } });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.errors[0].message).toBe('Wrong email or password');
    expect(unknownEmail.status).toBe(401);
    expect(unknownEmail.body.errors[0].message).toBe(wrongPassword.body.errors[0].message);
    expect(wrongPassword.headers['set-cookie']).toBeUndefined();
  });

  it('stops guessing at one account after 10 failures, even with the right password, and says when to retry', async () => {
    const { email } = await signUp();
    for (let i = 0; i < 10; i++) expect((await gql(LOG_IN, { input: { email, password: `guess number ${i}` } })).status).toBe(401);
    const locked = await gql(LOG_IN, { input: { email, password: PASSWORD } });
    expect(locked.status).toBe(429);
    expect(locked.body.errors[0].message).toMatch(/^Too many failed log-ins: try again in \d+ minute/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('sessions', () => {
  it('log out ends the session on the server and clears the cookie', async () => {
    const { cookie } = await signUp();
    const out = await gql(WEB.LOG_OUT, {}, { cookie });
    expect(out.body).toEqual({ data: { logOut: true } });
    expect((out.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^bp_session=; Path=\/; Expires=Thu, 01 Jan 1970/);
    const after = await gql(SESSION, {}, { cookie });
    expect(after.body.data.session).toBeNull();
  });

  it('a password change ends every session of the account, and this browser gets a new one', async () => {
    const { email, cookie: first } = await signUp();
    const second = sessionCookie(await gql(LOG_IN, { input: { email, password: PASSWORD } }));
    const change = await gql(WEB.CHANGE_PASSWORD, { c: PASSWORD, n: 'a new long password' }, { cookie: second });
    expect(change.body).toEqual({ data: { changePassword: true } });
    const fresh = sessionCookie(change);
    expect(await sessionOf(first)).toBeNull();
    expect(await sessionOf(second)).toBeNull();
    expect((await sessionOf(fresh)).email).toBe(email);
    expect((await gql(LOG_IN, { input: { email, password: PASSWORD } })).status).toBe(401);
    expect((await gql(LOG_IN, { input: { email, password: 'a new long password' } })).status).toBe(200);
  });

  it('a wrong current password changes nothing', async () => {
    const { cookie } = await signUp();
    const change = await gql(WEB.CHANGE_PASSWORD, { c: 'not my password', n: 'a new long password' }, { cookie });
    expect(change.body.errors[0]).toMatchObject({ message: 'The current password is wrong', extensions: { code: 'BAD_USER_INPUT' } });
    expect(await sessionOf(cookie)).not.toBeNull();
  });

  it('ends after a day idle, and the browser is told to forget the cookie', async () => {
    const { email, cookie } = await signUp();
    await t.db.dataSource.query(`UPDATE dashboard_session SET last_seen_at = now() - interval '25 hours' WHERE account_id = (SELECT id FROM account WHERE email = $1)`, [email]);
    const res = await gql(SESSION, {}, { cookie });
    expect(res.body.data.session).toBeNull();
    expect((res.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^bp_session=;/);
  });

  it('ends at its expiry however active it is', async () => {
    const { email, cookie } = await signUp();
    await t.db.dataSource.query(`UPDATE dashboard_session SET expires_at = now() - interval '1 second' WHERE account_id = (SELECT id FROM account WHERE email = $1)`, [email]);
    expect(await sessionOf(cookie)).toBeNull();
  });
});

describe('one credential per door', () => {
  it('a session cookie never authenticates /api/v1', async () => {
    const { email, cookie } = await signUp();
    await t.services.accounts.setTier(email, 'pilot');
    const res = await t.http().get('/api/v1/predict/2900').set('cookie', cookie);
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/API key/);
  });

  it('an API key never authenticates the dashboard’s own operations', async () => {
    const key = await t.userWithKey('pro');
    const create = await gql('mutation { createApiKey(name: "x") { apiKey } }', {}, { key, origin: null });
    expect(create.status).toBe(403);
    expect(create.body.errors[0].message).toMatch(/account dashboard/);
    const list = await gql('{ apiKeys { prefix } }', {}, { key, origin: null });
    expect(list.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('the session cookie runs only the dashboard’s own documents', () => {
  it('refuses any other document sent with the cookie (403), saying that the API takes keys; with a key it runs', async () => {
    const { email, cookie } = await signUp();
    await t.services.accounts.setTier(email, 'pilot');
    const other = '{ bills(first: 5) { nodes { id } } }';
    const refused = await gql(other, {}, { cookie });
    expect(refused.status).toBe(403);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(refused.body.errors[0].message).toMatch(/API key \(Authorization: Bearer <key>, or X-API-Key: <key>\)/);
    // one character changed in a dashboard document makes another document
    expect((await gql(WEB.BILL_SEARCH.replace('first: 25', 'first: 50'), { text: 'Bill' }, { cookie })).status).toBe(403);
    expect((await gql('mutation { testWebhook(id: 1) { eventId } }', {}, { cookie })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    // the dashboard's own documents run, and so does any document with a key
    const search = await gql(WEB.BILL_SEARCH, { text: 'Marriage' }, { cookie });
    expect(search.status).toBe(200);
    expect(search.body.data.bills.nodes.length).toBeGreaterThan(0);
    const key = await t.userWithKey('pilot');
    expect((await gql(other, {}, { key, origin: null })).body.data.bills.nodes).toHaveLength(5);
    expect((await gql(other, {}, { key, cookie })).status).toBe(200);
    expect(await used(cookie, 'calls')).toBe(0);
  });
});

describe('who is signed in', () => {
  it('a signed-out visitor is answered null, not refused; a signed-in one, the account', async () => {
    const anonymous = await gql(SESSION);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.errors).toBeUndefined();
    expect(anonymous.body.data.session).toBeNull();
    const { email, cookie } = await signUp();
    expect((await gql(SESSION, {}, { cookie })).body.data.session).toEqual({ account: { email, tier: 'FREE' } });
  });
});

describe('CSRF', () => {
  it('refuses a cookie-authenticated request from another site’s page, by Origin or by Fetch Metadata', async () => {
    const { cookie } = await signUp();
    const foreign = await gql(WEB.LOG_OUT, {}, { cookie, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors[0].message).toMatch(/Cross-site request refused/);
    const fetchMetadata = await t.http().post('/graphql').set('host', HOST).set('sec-fetch-site', 'cross-site').set('cookie', cookie).send({ query: WEB.LOG_OUT });
    expect(fetchMetadata.status).toBe(403);
    // the same host under the other scheme is another site: the request came over http
    const otherScheme = await gql(WEB.LOG_OUT, {}, { cookie, origin: 'https://dashboard.test' });
    expect(otherScheme.status).toBe(403);
    // the session survived all three
    expect(await sessionOf(cookie)).not.toBeNull();
  });

  it('refuses a log-in from another site’s page (login CSRF)', async () => {
    const { email } = await signUp();
    const res = await gql(LOG_IN, { input: { email, password: PASSWORD } }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('keeps Apollo’s CSRF prevention: a simple (form-like) POST with the cookie is refused before it runs', async () => {
    const { cookie } = await signUp();
    const res = await t.http().post('/graphql').set('host', HOST).set('cookie', cookie).set('content-type', 'text/plain').send(JSON.stringify({ query: WEB.LOG_OUT }));
    expect(res.status).toBe(400);
    expect(await sessionOf(cookie)).not.toBeNull();
  });
});

const BILL_PAGE = WEB.BILL_PREDICTIONS;
const used = async (cookie: string, kind: string) => ((await gql(WEB.ACCOUNT, {}, { cookie })).body.data.usage as { kind: string; used: number }[]).find((u) => u.kind === kind)!.used;

describe('website predictions', () => {
  it('Free: one bill a day, its predictions and chart together, reopened for free; the next bill is refused with when it resets and what Pilot gives', async () => {
    const { cookie } = await signUp();
    const first = await gql(BILL_PAGE, { id: 2900 }, { cookie });
    expect(first.status).toBe(200);
    expect(first.body.data.bill.prediction.royalAssent).toBeGreaterThanOrEqual(0);
    expect(first.body.data.bill.predictionHistory.length).toBeGreaterThan(5);
    expect(await used(cookie, 'predictions')).toBe(1);
    const again = await gql(BILL_PAGE, { id: 2900 }, { cookie });
    expect(again.status).toBe(200);
    expect(await used(cookie, 'predictions')).toBe(1);
    const second = await gql(BILL_PAGE, { id: 2950 }, { cookie });
    expect(second.status).toBe(429);
    expect(second.body.errors[0].message).toBe(
      "Daily prediction limit reached: the free tier allows 1 a day; it resets at midnight UTC (00:00 on 23 November in London). The pilot tier gives 100 predictions a day and API keys: ask the service's operator to upgrade your account",
    );
    // the bill itself (its stage history) stays readable
    expect((await gql(WEB.BILL, { id: 2950 }, { cookie })).status).toBe(200);
  });

  it('Free: the next bill is refused before its chart is computed', async () => {
    const { cookie } = await signUp();
    expect((await gql(BILL_PAGE, { id: 2900 }, { cookie })).status).toBe(200);
    const charts = jest.spyOn(t.services.predictions, 'nowcastsOfBill');
    try {
      expect((await gql(BILL_PAGE, { id: 2950 }, { cookie })).status).toBe(429);
      expect(charts).not.toHaveBeenCalled();
      expect((await gql(BILL_PAGE, { id: 2900 }, { cookie })).status).toBe(200);
      expect(charts.mock.calls.map(([billId]) => billId)).toEqual([2900]);
    } finally {
      charts.mockRestore();
    }
  });

  it('Free: the limit resets at midnight UTC', async () => {
    const { cookie } = await signUp();
    await gql(BILL_PAGE, { id: 2900 }, { cookie });
    expect((await gql(BILL_PAGE, { id: 26 }, { cookie })).status).toBe(429);
    t.setNow(new Date('2026-11-23T00:00:01Z'));
    expect((await gql(BILL_PAGE, { id: 26 }, { cookie })).status).toBe(200);
  });

  it('the imminent list is open to Free and charges nothing', async () => {
    const { cookie } = await signUp();
    const res = await gql(WEB.IMMINENT, { days: 30, min: 0 }, { cookie });
    expect(res.status).toBe(200);
    expect(res.body.data.imminentBills.count).toBe(res.body.data.imminentBills.bills.length);
    expect(await used(cookie, 'predictions')).toBe(0);
  });

  it('Pilot: website requests charge predictions once per bill per day, and no API calls', async () => {
    const { email, cookie } = await signUp();
    await t.services.accounts.setTier(email, 'pilot');
    await gql(BILL_PAGE, { id: 2900 }, { cookie });
    await gql(BILL_PAGE, { id: 2900 }, { cookie });
    await gql(BILL_PAGE, { id: 26 }, { cookie });
    expect(await used(cookie, 'predictions')).toBe(2);
    expect(await used(cookie, 'calls')).toBe(0);
  });

  it('two requests opening the same bill at once are charged one prediction, and both answered', async () => {
    const { cookie } = await signUp();
    const both = await Promise.all([gql(BILL_PAGE, { id: 2900 }, { cookie }), gql(BILL_PAGE, { id: 2900 }, { cookie })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(await used(cookie, 'predictions')).toBe(1);
  });

  it('Pilot: "Check now" charges its bills like the pages do, once per bill per day', async () => {
    const { email, cookie } = await signUp();
    await t.services.accounts.setTier(email, 'pilot');
    await gql(BILL_PAGE, { id: 2900 }, { cookie });
    const created = await gql(WEB.CREATE_WATCHLIST, { input: { name: 'mine', billIds: [2900, 26] } }, { cookie });
    const watchlistId = created.body.data.createWatchlist.id;
    await gql(WEB.CREATE_ALERT_THRESHOLD, { input: { watchlistId, alertType: 'PROBABILITY', thresholdValue: 0.5 } }, { cookie });
    const check = await gql(WEB.CHECK_ALERTS, {}, { cookie });
    expect(check.body.data.checkAlerts.billsChecked).toBe(2);
    expect(await used(cookie, 'predictions')).toBe(2);
    await gql(WEB.CHECK_ALERTS, {}, { cookie });
    expect(await used(cookie, 'predictions')).toBe(2);
  });

  it('Free: watchlists need Pilot (403), whatever the page shows', async () => {
    const { cookie } = await signUp();
    const res = await gql(WEB.CREATE_WATCHLIST, { input: { name: 'mine' } }, { cookie });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].message).toBe('This operation needs the pilot tier or above');
  });

  it('Free: webhooks need Pilot (403) too', async () => {
    const { cookie } = await signUp();
    const res = await gql(WEB.WEBHOOKS, {}, { cookie });
    expect(res.status).toBe(403);
  });
});

describe('a bill’s prediction history (its chart)', () => {
  it('is the nowcast at each of its dates, within the bill’s life, and costs an API user one prediction', async () => {
    const key = await t.userWithKey('pilot');
    const res = await t.graphql('{ bill(id: 2900) { introducedDate predictionHistory { referenceDate royalAssent nextStage30d } } }', { key });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('99');
    const { introducedDate, predictionHistory: points } = res.body.data.bill;
    const dates = points.map((p: { referenceDate: string }) => p.referenceDate);
    expect(dates).toEqual([...dates].sort());
    expect(dates[0] >= introducedDate).toBe(true);
    expect(dates.at(-1) <= '2021-12-31').toBe(true);
    const middle = points[Math.floor(points.length / 2)];
    const nowcast = await t.graphql(`{ prediction(billId: 2900, referenceDate: "${middle.referenceDate}") { royalAssent nextStage30d } }`, { key });
    expect(nowcast.body.data.prediction).toEqual({ royalAssent: middle.royalAssent, nextStage30d: middle.nextStage30d });
  });
});

describe('API keys in the dashboard', () => {
  const CREATE = WEB.CREATE_API_KEY;
  const keysOf = async (cookie: string) => (await gql(WEB.ACCOUNT, {}, { cookie })).body.data.apiKeys as { prefix: string; name: string; lastUsedAt: string | null; revokedAt: string | null }[];

  it('Free: refused with 403 whatever the page does', async () => {
    const { cookie } = await signUp();
    const res = await gql(CREATE, { name: 'laptop' }, { cookie });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].message).toMatch(/pilot tier or above/);
  });

  it('Pilot: creates a key shown once that works on /api/v1, lists it without the secret, and revokes it (then 401)', async () => {
    const { email, cookie } = await signUp();
    await t.services.accounts.setTier(email, 'pilot');
    const created = await gql(CREATE, { name: 'laptop' }, { cookie });
    expect(created.status).toBe(200);
    const { apiKey } = created.body.data.createApiKey;
    const [key] = await keysOf(cookie);
    expect(apiKey.startsWith(`${key.prefix}_`)).toBe(true);
    expect(key).toMatchObject({ name: 'laptop', lastUsedAt: null, revokedAt: null });
    expect((await t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${apiKey}`)).status).toBe(200);
    const list = await gql(WEB.ACCOUNT, {}, { cookie });
    expect(JSON.stringify(list.body)).not.toContain(apiKey);
    expect(list.body.data.apiKeys).toEqual([expect.objectContaining({ prefix: key.prefix, name: 'laptop', revokedAt: null })]);
    expect(list.body.data.apiKeys[0].lastUsedAt).not.toBeNull();
    const revoked = await gql(WEB.REVOKE_API_KEY, { prefix: key.prefix }, { cookie });
    expect(revoked.body.data.revokeApiKey.prefix).toBe(key.prefix);
    expect((await keysOf(cookie))[0].revokedAt).not.toBeNull();
    expect((await t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${apiKey}`)).status).toBe(401);
  });

  it('another account’s key is NOT_FOUND, and stays working', async () => {
    const otherKey = await t.userWithKey('pilot');
    const { cookie } = await signUp();
    const res = await gql(WEB.REVOKE_API_KEY, { prefix: otherKey.slice(0, 11) }, { cookie });
    expect(res.status).toBe(404);
    expect((await t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${otherKey}`)).status).toBe(200);
  });
});
