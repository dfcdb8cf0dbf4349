import { Readiness } from '../../src/health/readiness';
import { listenNotReady } from '../../src/doors/http/not-ready-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { type AdminDeps } from '../../src/admin/commands/admin-commands';
import { startAdminEndpoint } from '../../src/admin/door/admin-endpoint';

let t: TestApp;
let key: string;
let accountId: number;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
  key = await t.userWithKey('pilot', 'observed@example.com');
  accountId = await t.accountIdOf('observed@example.com');
});
afterAll(() => t.close());

const logEntries = () => t.logLines.map((l) => JSON.parse(l) as Record<string, any>);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it('is on every response: health, readiness, 404s, refusals, GraphQL and REST', async () => {
    const responses = await Promise.all([
      t.http().get('/healthz'),
      t.http().get('/readyz'),
      t.http().get('/no/such/path'),
      t.http().get('/api/v1/predict/2900').set('authorization', 'Bearer bp_00000000_wrong'),
      t.http().post('/graphql').send({ query: '{ me { id } }' }).set('authorization', `Bearer ${key}`),
      t.http().post('/graphql').set('content-type', 'application/json').send('{not json'),
      t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${key}`),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 404, 401, 200, 400, 200]);
    for (const res of responses) expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('keeps a well-formed id from the client, replaces a malformed one, and logs the request under it', async () => {
    const kept = await t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${key}`).set('x-request-id', 'client-trace.42');
    expect(kept.headers['x-request-id']).toBe('client-trace.42');
    const line = logEntries().find((l) => l.req?.id === 'client-trace.42');
    expect(line).toMatchObject({ msg: 'request completed', req: { method: 'GET', path: '/api/v1/predict/2900' }, res: { status: 200 } });
    expect(JSON.stringify(logEntries())).not.toContain(key);

    const replaced = await t.http().get('/healthz').set('x-request-id', 'two words <script>'.padEnd(120, 'x'));
    expect(replaced.headers['x-request-id']).toMatch(UUID);
  });
});

describe('X-Content-Type-Options: nosniff', () => {
  it('is on every response: REST, GraphQL, health, the dashboard, the API docs, errors and 404s', async () => {
    const responses = await Promise.all([
      t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${key}`),
      t.http().get('/api/v1/predict/abc').set('authorization', `Bearer ${key}`),
      t.http().post('/graphql').send({ query: '{ me { id } }' }).set('authorization', `Bearer ${key}`),
      t.http().post('/graphql').set('content-type', 'application/json').send('{not json'),
      t.http().get('/readyz'),
      t.http().get('/healthz'),
      t.http().get('/'),
      t.http().get('/docs'),
      t.http().get('/api/v1/openapi.json'),
      t.http().get('/no/such/path'),
      t.http().delete('/api/v1/predict/2900'),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 400, 200, 400, 200, 200, 200, 200, 200, 404, 405]);
    for (const res of responses) expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('is on the answers of the server that holds the port while a dependency is missing', async () => {
    const readiness = new Readiness();
    readiness.block('test', 'a test holds readiness');
    const held = await listenNotReady(0, '127.0.0.1', readiness);
    try {
      const res = await fetch(`http://127.0.0.1:${held.port}/api/v1/predict/2900`);
      expect(res.status).toBe(503);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await held.close();
    }
  });

  it('is on the loopback admin endpoint’s answers, refusals included', async () => {
    const endpoint = await startAdminEndpoint({} as AdminDeps, t.services.logger);
    try {
      const unauthorised = await fetch(`${endpoint.url}/admin/commands/list-users`, { method: 'POST' });
      const missing = await fetch(`${endpoint.url}/no/such/path`);
      expect([unauthorised.status, missing.status]).toEqual([401, 404]);
      for (const res of [unauthorised, missing]) expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await endpoint.close();
    }
  });
});

describe('logging a readiness 503', () => {
  it('is below info, as every probe is: a supervisor polls it every second or so', async () => {
    t.services.readiness.block('test', 'a test holds readiness');
    try {
      const res = await t.http().get('/readyz').set('x-request-id', 'readyz-503');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ detail: 'Not ready: a test holds readiness' });
    } finally {
      t.services.readiness.unblock('test');
    }
    expect(logEntries().find((l) => l.req?.id === 'readyz-503')).toBeUndefined();
    // a request that is not a probe is still logged at info
    await t.http().get('/api/v1/nothing-here').set('x-request-id', 'not-a-probe');
    expect(logEntries().find((l) => l.req?.id === 'not-a-probe')?.level).toBe(30);
  });
});

describe('GET /metrics', () => {
  const scrape = () => t.http().get('/metrics');

  it('counts requests by route pattern and status with latency, GraphQL operations by name, quota refusals by limit, and the model served', async () => {
    await t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${key}`);
    await t.http().get('/api/v1/predict/999999').set('authorization', `Bearer ${key}`);
    await t.http().post('/graphql').set('authorization', `Bearer ${key}`).send({ query: 'query WhoAmI { me { id } }', operationName: 'WhoAmI' });
    await t.services.quotas.store.take(accountId, '2026-11-22', 'predictions', 100, 100);
    expect((await t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${key}`)).status).toBe(429);

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/v1\/predict\/:bill_id",status="200"\} [1-9]/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/v1\/predict\/:bill_id",status="404"\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/v1\/predict\/:bill_id",status="429"\} 1$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/v1\/predict\/:bill_id",status="200"\} \d+$/m);
    expect(text).not.toMatch(/route="[^"]*\d{3,}/);
    expect(text).toMatch(/^graphql_operations_total\{operation="me",type="query",outcome="success"\} [1-9]\d*$/m);
    expect(text).toMatch(/^bill_progress_quota_refusals_total\{limit="predictions"\} 1$/m);
    const version = t.services.models.activeVersion()!;
    expect(text).toContain(`bill_progress_model_info{version="${version.id}",feature_schema_version="${version.feature_schema_version}"} 1`);
    expect(text).toMatch(/^bill_progress_model_trained_timestamp_seconds \d+/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('labels GraphQL operations by the schema’s root fields they ran, never by names a client chose: anything else is one "other"', async () => {
    for (let i = 0; i < 5; i++) await t.http().post('/graphql').send({ query: `query Flood${i} { serviceStatus { today } a${i}: serviceStatus { today } }` });
    await t.http().post('/graphql').send({ query: 'query Broken { nosuchfield }' });
    await t.http().post('/graphql').send({ query: 'not graphql' });
    const text = (await scrape()).text;
    expect(text).not.toMatch(/Flood|Broken|nosuchfield/);
    expect(text).toMatch(/^graphql_operations_total\{operation="serviceStatus",type="query",outcome="success"\} 5$/m);
    expect(text).toMatch(/^graphql_operations_total\{operation="other",type="unknown",outcome="error"\} 2$/m);
  });

  it('without METRICS_TOKEN is refused (404) to a request that came through a proxy', async () => {
    const res = await scrape().set('x-forwarded-for', '203.0.113.7');
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/No such endpoint/);
  });
});
