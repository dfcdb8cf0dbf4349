import { startTestApp, type TestApp } from '../support/test-app';

// Its own file: in-process apps of one test file share the one PGlite instance typeorm-pglite keeps
// per module registry, so a second app closing would close the first one's database.
describe('GET /metrics with METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789';
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await startTestApp({ metricsToken: token });
  });
  afterAll(() => guarded.close());

  it('needs the bearer token, even from loopback', async () => {
    expect((await guarded.http().get('/metrics')).status).toBe(401);
    expect((await guarded.http().get('/metrics').set('authorization', 'Bearer wrong-token-0123456789')).status).toBe(401);
    const ok = await guarded.http().get('/metrics').set('authorization', `Bearer ${token}`).set('x-forwarded-for', '203.0.113.7');
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('http_requests_total');
  });
});
