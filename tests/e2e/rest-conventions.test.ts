import { RISKS } from '../../src/vocabulary';
import { startTestApp, type TestApp } from '../support/test-app';

// The HTTP conventions of /api/v1 (issue 9): one success status, 405, refused unknown inputs,
// the 401 challenge, CORS, the alert aliases, the same object everywhere, one spelling per door.

const ALLOWED_ORIGIN = 'https://app.example.com';

let t: TestApp;
let pro: string;
let pilot: string;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true, corsOrigins: [ALLOWED_ORIGIN] });
  pro = await t.userWithKey('pro');
  pilot = await t.userWithKey('pilot');
});
afterAll(() => t.close());

const api = (key: string) => ({
  get: (url: string) => t.http().get(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
  post: (url: string, body?: unknown) => {
    const req = t.http().post(`/api/v1${url}`).set('authorization', `Bearer ${key}`);
    return body === undefined ? req : req.send(body as object);
  },
  del: (url: string) => t.http().delete(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
});

describe('a known path with another method', () => {
  it.each([
    ['POST', '/predict/2900', 'GET, HEAD'],
    ['DELETE', '/dashboard/watchlists', 'GET, HEAD, POST'],
    ['PUT', '/dashboard/watchlists/7', 'GET, HEAD, DELETE'],
    ['GET', '/predictions/batch', 'POST'],
    ['PATCH', '/alerts/thresholds/3', 'DELETE'],
    ['GET', '/predictions/alerts/check', 'POST'],
  ])('%s %s answers 405 with Allow: %s and a detail', async (method, path, allow) => {
    const res = await t.http()[method.toLowerCase() as 'get'](`/api/v1${path}`).set('authorization', `Bearer ${pro}`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.body).toEqual({ detail: `${method} is not allowed on /api/v1${path}; allowed: ${allow}` });
  });

  it('is told apart from an unknown path (404) and answers OPTIONS with the Allow list', async () => {
    expect((await t.http().post('/api/v1/no/such/path')).status).toBe(404);
    const options = await t.http().options('/api/v1/predict/2900');
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('GET, HEAD');
  });
});

describe('an input the operation does not have', () => {
  it('is a 400 naming it in the query, where it was silently ignored before', async () => {
    const res = await api(pro).get('/predict/2900?referenceDate=2021-01-04');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'unknown query parameter referenceDate: GET /predict/{bill_id} takes reference_date, explain' });
    expect((await api(pro).get('/predictions/imminent?days=3')).body.detail).toBe('unknown query parameter days: GET /predictions/imminent takes days_ahead, min_probability');
  });

  it('is a 400 naming it in a JSON body, instead of a prediction for today', async () => {
    for (const path of ['/predictions/batch', '/predict/batch']) {
      const res = await api(pro).post(path, { bill_ids: [2900], referenceDate: '2021-01-04' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: `unknown field referenceDate in the JSON body: POST ${path} takes bill_ids, reference_date` });
    }
    const wl = await api(pro).post('/dashboard/watchlists', { name: 'Typo', bills: [2900] });
    expect(wl.status).toBe(400);
    expect(wl.body.detail).toMatch(/^unknown field bills in the JSON body/);
    const threshold = await api(pro).post('/alerts/thresholds', { watchlist_id: 1, alert_type: 'probability', threshold_value: 0.5, comparator: 'less_than' });
    expect(threshold.body.detail).toMatch(/^unknown field comparator in the JSON body: POST \/alerts\/thresholds takes watchlist_id, bill_id, alert_type, threshold_value, comparison$/);
  });

  it('is a 400 naming it in a JSON body sent to an operation that takes none', async () => {
    const res = await api(pro).post('/predictions/alerts/check', { watchlist_id: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'unknown field watchlist_id in the JSON body: POST /predictions/alerts/check takes none' });
  });

  it('leaves the documented inputs working', async () => {
    expect((await api(pro).get('/predict/2900?reference_date=2021-11-25')).body.reference_date).toBe('2021-11-25');
    expect((await api(pro).post('/predictions/batch', { bill_ids: [2900], reference_date: '2021-11-25' })).body.summary.success).toBe(1);
  });
});

describe('a 401', () => {
  it.each([
    ['no key', {}],
    ['an unknown key', { authorization: 'Bearer bp_0123abcd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('with %s carries WWW-Authenticate: Bearer', async (_name, headers) => {
    const res = await t.http().get('/api/v1/predict/2900').set(headers);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="bill-progress"');
  });

  it('carries it on GraphQL too', async () => {
    const res = await t.graphql('{ prediction(billId: 2900) { billId } }', { key: 'bp_0123abcd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="bill-progress"');
  });

  it('is the only answer that carries it', async () => {
    expect((await api(pro).get('/predict/2900')).headers['www-authenticate']).toBeUndefined();
  });
});

describe('CORS', () => {
  it('lets a configured origin read answers, with the rate-limit headers exposed', async () => {
    const res = await api(pro).get('/predict/2900').set('origin', ALLOWED_ORIGIN);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(res.headers.vary).toMatch(/Origin/);
    expect(res.headers['access-control-expose-headers'].split(',')).toEqual(expect.arrayContaining(['X-RateLimit-Remaining', 'X-RateLimit-Reset']));
  });

  it('answers a preflight from a configured origin with 200, the methods and the headers a client sends', async () => {
    const res = await t.http().options('/api/v1/predictions/batch').set('origin', ALLOWED_ORIGIN).set('access-control-request-method', 'POST').set('access-control-request-headers', 'authorization, content-type');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(res.headers['access-control-allow-methods'].split(',')).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
    expect(res.headers['access-control-allow-headers'].toLowerCase().split(',')).toEqual(expect.arrayContaining(['authorization', 'x-api-key', 'content-type']));
  });

  it('gives any other origin no CORS headers', async () => {
    const res = await api(pro).get('/predict/2900').set('origin', 'https://evil.example.net');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.http().options('/api/v1/predict/2900').set('origin', 'https://evil.example.net').set('access-control-request-method', 'GET');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('success is 200', () => {
  it('for a create (with the created object) and a delete (with its id and deleted: true)', async () => {
    const a = api(pilot);
    const created = await a.post('/dashboard/watchlists', { name: 'Two hundred', bill_ids: [2900] });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.any(Number), name: 'Two hundred', bill_count: 1 });
    const threshold = await a.post('/predictions/alerts/thresholds', { watchlist_id: created.body.id, alert_type: 'probability', threshold_value: 0.5 });
    expect(threshold.status).toBe(200);
    expect(threshold.body).toMatchObject({ id: expect.any(Number), watchlist_id: created.body.id, alert_type: 'probability' });
    const deletedThreshold = await a.del(`/predictions/alerts/thresholds/${threshold.body.id}`);
    expect({ status: deletedThreshold.status, body: deletedThreshold.body }).toEqual({ status: 200, body: { id: threshold.body.id, deleted: true } });
    const deletedWatchlist = await a.del(`/dashboard/watchlists/${created.body.id}`);
    expect({ status: deletedWatchlist.status, body: deletedWatchlist.body }).toEqual({ status: 200, body: { id: created.body.id, deleted: true } });
  });
});

describe('a prediction answered from memory', () => {
  it('carries an ETag, answers 304 without a body to a client that has it, and HEAD with the length and no body', async () => {
    const first = await api(pro).get('/predict/2900');
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(first.text));
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await api(pro).get('/predict/2900').set('if-none-match', etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    const head = await t.http().head('/api/v1/predict/2900').set('authorization', `Bearer ${pro}`);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.text ?? '').toBe('');
    expect((await api(pro).get('/predict/2900').set('if-none-match', 'W/"other"')).body).toEqual(first.body);
  });
});

describe('every alert operation under /alerts as under /predictions/alerts', () => {
  it('lists, checks, deletes and reads history under the short prefix', async () => {
    const a = api(pro);
    const wl = (await a.post('/dashboard/watchlists', { name: 'Aliases', bill_ids: [2900] })).body.id;
    const made = (await a.post('/alerts/thresholds', { watchlist_id: wl, alert_type: 'probability', threshold_value: 0 })).body;
    const long = await a.get('/predictions/alerts/thresholds');
    const short = await a.get('/alerts/thresholds');
    expect(short.status).toBe(200);
    expect(short.body).toEqual(long.body);
    expect(short.body.thresholds.map((x: { id: number }) => x.id)).toContain(made.id);

    const check = await a.post('/alerts/check');
    expect(check.status).toBe(200);
    expect(check.body.triggered).toEqual([expect.objectContaining({ threshold_id: made.id, bill_id: 2900 })]);
    const history = await a.get('/alerts/history?limit=10');
    expect(history.status).toBe(200);
    expect(history.body).toEqual((await a.get('/predictions/alerts/history?limit=10')).body);
    expect(history.body.total).toBe(1);

    expect((await a.del(`/alerts/thresholds/${made.id}`)).body).toEqual({ id: made.id, deleted: true });
    expect((await a.del(`/alerts/thresholds/${made.id}`)).status).toBe(404);
  });
});

describe('a risk alert', () => {
  const CREATE = 'mutation($input: CreateAlertThresholdInput!) { createAlertThreshold(input: $input) { id } }';

  it.each(RISKS)('of type %s refuses less_than on REST and GraphQL, saying a risk alerts when it exceeds the threshold', async (type) => {
    const wl = (await api(pilot).post('/dashboard/watchlists', { name: `Risk ${type}`, bill_ids: [2900] })).body.id;
    const rest = await api(pilot).post('/predictions/alerts/thresholds', { watchlist_id: wl, bill_id: null, alert_type: type, threshold_value: 0.3, comparison: 'less_than' });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ detail: `${type} alerts when the risk exceeds the threshold: comparison must be greater_than` });
    const gql = await t.graphql(CREATE, { key: pilot, variables: { input: { watchlistId: wl, alertType: type.toUpperCase(), thresholdValue: 0.3, comparison: 'LESS_THAN' } } });
    expect(gql.body.errors[0]).toMatchObject({ message: rest.body.detail, extensions: { code: 'BAD_USER_INPUT' } });
    expect((await api(pilot).get('/predictions/alerts/thresholds')).body.thresholds.filter((x: { watchlist_id: number }) => x.watchlist_id === wl)).toEqual([]);
    expect((await api(pilot).post('/predictions/alerts/thresholds', { watchlist_id: wl, alert_type: type, threshold_value: 0.3, comparison: 'greater_than' })).status).toBe(200);
  });
});

describe('the same object everywhere', () => {
  it('a bill of a watchlist carries predictions and risk_indicators exactly as GET /predict/{bill_id} does', async () => {
    const a = api(pro);
    const id = (await a.post('/dashboard/watchlists', { name: 'Same shape', bill_ids: [2900, 144] })).body.id;
    const bills = (await a.get(`/dashboard/watchlists/${id}`)).body.bills as { bill_id: number; predictions: unknown; risk_indicators: unknown }[];
    for (const billId of [2900, 144]) {
      const single = (await a.get(`/predict/${billId}`)).body;
      const member = bills.find((b) => b.bill_id === billId)!;
      expect(member.predictions).toEqual(single.predictions);
      expect(member.risk_indicators).toEqual(single.risk_indicators);
    }
  });
});

describe('each door names inputs in its own spelling', () => {
  it('a reference date after today: reference_date on REST, referenceDate on GraphQL', async () => {
    const rest = await api(pro).get('/predict/2900?reference_date=2022-06-01');
    expect(rest.status).toBe(400);
    expect(rest.body.detail).toMatch(/^reference_date 2022-06-01 is after today/);
    const batch = await api(pro).post('/predictions/batch', { bill_ids: [2900], reference_date: '2022-06-01' });
    expect(batch.body.detail).toMatch(/^reference_date 2022-06-01 is after today/);
    const gql = await t.graphql('{ prediction(billId: 2900, referenceDate: "2022-06-01") { billId } }', { key: pro });
    expect(gql.body.errors[0].message).toMatch(/^referenceDate 2022-06-01 is after today/);
    // a batch item's detail, which no door rewrites, speaks plain words
    const item = (await api(pro).post('/predictions/batch', { bill_ids: [2900], reference_date: '2020-01-01' })).body.results[0];
    expect(item).toMatchObject({ status: 'error', detail: 'bill 2900 was introduced on 2021-06-16, after the reference date 2020-01-01' });
  });

  it('a threshold value out of range: threshold_value on REST, thresholdValue on GraphQL', async () => {
    const wl = (await api(pro).post('/dashboard/watchlists', { name: 'Spelling', bill_ids: [2900] })).body.id;
    const rest = await api(pro).post('/predictions/alerts/thresholds', { watchlist_id: wl, alert_type: 'probability', threshold_value: 1.5 });
    expect(rest.body).toEqual({ detail: 'threshold_value for probability is a probability from 0 to 1' });
    const gql = await t.graphql('mutation($input: CreateAlertThresholdInput!) { createAlertThreshold(input: $input) { id } }', {
      key: pro,
      variables: { input: { watchlistId: wl, alertType: 'PROBABILITY', thresholdValue: 1.5 } },
    });
    expect(gql.body.errors[0].message).toBe('thresholdValue for probability is a probability from 0 to 1');
  });
});
