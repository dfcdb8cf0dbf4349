import * as WEB from '../../web/src/operations';
import { startTestApp, type TestApp } from '../support/test-app';

// /graphql over HTTP as a browser or any HTTP client meets it: the status of an answer that failed
// as a whole, and the CORS policy REST has (CORS_ORIGINS).
const ALLOWED_ORIGIN = 'https://app.example.com';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp({ corsOrigins: [ALLOWED_ORIGIN] });
  key = await t.userWithKey('pro');
});
afterAll(() => t.close());

/** A GraphQL POST from a browser page of `origin`. */
const fromOrigin = (origin: string, query: string) =>
  t.http().post('/graphql').set('content-type', 'application/json').set('authorization', `Bearer ${key}`).set('origin', origin).send({ query });

/** What node-postgres throws when the database cannot be reached. */
const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('a database that cannot be reached inside a resolver', () => {
  afterEach(() => jest.restoreAllMocks());

  it('is a 503 when the whole answer failed (data null), as on REST', async () => {
    jest.spyOn(t.services.bills, 'list').mockRejectedValue(unreachable());
    const res = await t.graphql('{ bills(first: 1) { edges { node { id } } } }', { key });
    expect(res.status).toBe(503);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/database is unreachable/), extensions: { code: 'SERVICE_UNAVAILABLE' } })]);
  });

  it('leaves a partial answer 200: the fields that could be answered are there', async () => {
    jest.spyOn(t.services.bills, 'byIds').mockRejectedValue(unreachable());
    const res = await t.graphql('{ bill(id: 2900) { id } me { tier } }', { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ bill: null, me: { tier: 'PRO' } });
    expect(res.body.errors[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('CORS on /graphql (the policy of /api/v1)', () => {
  it('answers a preflight from a configured origin with 200, the methods and the headers a GraphQL client sends', async () => {
    const res = await t.http().options('/graphql').set('origin', ALLOWED_ORIGIN).set('access-control-request-method', 'POST').set('access-control-request-headers', 'authorization, content-type');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(res.headers['access-control-allow-methods'].split(',')).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(res.headers['access-control-allow-headers'].toLowerCase().split(',')).toEqual(expect.arrayContaining(['authorization', 'content-type']));
  });

  it('lets the configured origin read the answer and its rate-limit headers, and no other origin', async () => {
    const allowed = await fromOrigin(ALLOWED_ORIGIN, '{ me { tier } }');
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(allowed.headers['access-control-expose-headers'].split(',')).toEqual(expect.arrayContaining(['X-RateLimit-Remaining']));
    const other = await fromOrigin('https://evil.example.net', '{ me { tier } }');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const otherPreflight = await t.http().options('/graphql').set('origin', 'https://evil.example.net').set('access-control-request-method', 'POST');
    expect(otherPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('a subscription sent over HTTP', () => {
  it('is a 400 naming the WebSocket endpoint and its protocol, with or without a key, and logs nothing', async () => {
    const logged = jest.spyOn(t.services.logger, 'error');
    for (const credentials of [{ key }, {}]) {
      const res = await t.graphql('subscription { events { id } }', credentials);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/^Subscriptions are served over WebSocket only: connect to ws:\/\/127\.0\.0\.1:\d+\/graphql with the graphql-transport-ws protocol/), extensions: { code: 'BAD_USER_INPUT' } }),
      ]);
    }
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe('an operationName that picks no operation of the document', () => {
  /** The dashboard's own page, signed in: its session cookie runs only the dashboard's documents. */
  async function dashboardCookie(): Promise<string> {
    await t.services.sessions.signUp('operations@example.com', 'correct horse battery');
    const res = await dashboardPost({ query: WEB.LOG_IN, variables: { input: { email: 'operations@example.com', password: 'correct horse battery' } } });
    return (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('bp_session='))!.split(';')[0];
  }
  const dashboardPost = (body: object, cookie?: string) => {
    const req = t.http().post('/graphql').set('host', 'dashboard.test').set('origin', 'http://dashboard.test').set('content-type', 'application/json');
    if (cookie) req.set('cookie', cookie);
    return req.send(body);
  };
  const post = (body: object, withKey: boolean) => {
    const req = t.http().post('/graphql').set('content-type', 'application/json');
    if (withKey) req.set('authorization', `Bearer ${key}`);
    return req.send(body);
  };

  it('is a 400 BAD_USER_INPUT naming the operations there are, with or without a key or the session cookie, and logs no error', async () => {
    const logged = jest.spyOn(t.services.logger, 'error');
    for (const withKey of [true, false]) {
      const unknown = await post({ query: 'query A { __typename }', operationName: 'B' }, withKey);
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual([{ message: 'operationName "B" names no operation of the document: its one operation is "A"', extensions: { code: 'BAD_USER_INPUT' } }]);
      const unnamed = await post({ query: 'query A { __typename } query C { __typename }' }, withKey);
      expect(unnamed.status).toBe(400);
      expect(unnamed.body.errors).toEqual([{ message: 'The document holds 2 operations ("A", "C"): name the one to run in operationName', extensions: { code: 'BAD_USER_INPUT' } }]);
    }
    const cookie = await dashboardCookie();
    const website = await dashboardPost({ query: WEB.SESSION, operationName: 'Other' }, cookie);
    expect(website.status).toBe(400);
    expect(website.body.errors).toEqual([{ message: 'operationName "Other" names no operation of the document: its one operation is "Session"', extensions: { code: 'BAD_USER_INPUT' } }]);
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('runs the operation named, as before', async () => {
    const res = await post({ query: 'query A { __typename } query C { me { tier } }', operationName: 'C' }, true);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { me: { tier: 'PRO' } } });
  });
});

describe('a persisted query (not supported)', () => {
  const hash = 'ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38';

  it('is a 400 BAD_USER_INPUT saying to send the text, a hash alone or with its text, by POST or GET', async () => {
    const alone = await t.http().post('/graphql').set('content-type', 'application/json').set('authorization', `Bearer ${key}`).send({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    const withText = await t.http().post('/graphql').set('content-type', 'application/json').send({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    const get = await t.http().get('/graphql').query({ extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }) }).set('apollo-require-preflight', 'true');
    for (const res of [alone, withText, get]) {
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ message: expect.stringMatching(/^Persisted queries are not supported: send the document’s text in `query`/), extensions: { code: 'BAD_USER_INPUT' } }]);
    }
  });
});
