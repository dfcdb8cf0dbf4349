import { startTestApp, type TestApp } from '../support/test-app';

// Webhook endpoints through both doors: REST (/api/v1/webhooks…) and GraphQL. Delivery is tested in tests/integration/webhook-delivery.test.ts.

let t: TestApp;
/** hook.example.com resolves to a public address, private.example.com to a private one, rebind.example.com to link-local */
const NAMES: Record<string, string[]> = { 'hook.example.com': ['93.184.215.14'], 'private.example.com': ['10.1.2.3'], 'mixed.example.com': ['93.184.215.14', '169.254.169.254'] };
beforeAll(async () => {
  t = await startTestApp({ webhookUrlPolicy: { allowPrivate: false, resolve: async (host) => NAMES[host] ?? Promise.reject(new Error('ENOTFOUND')) } });
});
afterAll(() => t.close());

let n = 0;
const user = async (tier: 'free' | 'pilot' | 'pro') => {
  const email = `wh${++n}@example.com`;
  return { key: await t.userWithKey(tier, email), accountId: await t.accountIdOf(email) };
};
const api = (key: string) => ({
  get: (url: string) => t.http().get(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
  post: (url: string, body?: unknown) => t.http().post(`/api/v1${url}`).set('authorization', `Bearer ${key}`).send(body as object),
  patch: (url: string, body: unknown) => t.http().patch(`/api/v1${url}`).set('authorization', `Bearer ${key}`).send(body as object),
  del: (url: string) => t.http().delete(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
});
const URL = 'https://hook.example.com/bill-progress';

describe('webhook endpoints over REST', () => {
  it('are created with a secret shown once, listed and read without it, changed, and deleted', async () => {
    const a = api((await user('pilot')).key);
    const created = await a.post('/webhooks', { url: URL, events: ['bill.stage_changed', 'prediction.updated'], description: 'mine' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      url: URL,
      format: 'standard',
      events: ['bill.stage_changed', 'prediction.updated'],
      description: 'mine',
      all_bills: false,
      active: true,
      disabled_reason: null,
      inactive_events: [],
      inactive_reason: null,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    expect(Buffer.from(created.body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const { id, secret, ...endpoint } = created.body;

    const list = await a.get('/webhooks');
    expect(list.body).toEqual({ webhooks: [{ id, ...endpoint }] });
    expect((await a.get(`/webhooks/${id}`)).body).toEqual({ id, ...endpoint });
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));

    const changed = await a.patch(`/webhooks/${id}`, { all_bills: true, events: ['prediction.high_probability'], description: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, all_bills: true, events: ['prediction.high_probability'], description: null });
    expect((await a.patch(`/webhooks/${id}`, { active: false })).body).toMatchObject({ active: false, disabled_reason: null });

    const rotated = await a.post(`/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);

    expect((await a.del(`/webhooks/${id}`)).body).toEqual({ id, deleted: true });
    expect((await a.get(`/webhooks/${id}`)).status).toBe(404);
    expect((await a.get('/webhooks')).body).toEqual({ webhooks: [] });
  });

  it('queue a test event, listed among the deliveries newest first, and delete drops it', async () => {
    const a = api((await user('pilot')).key);
    const { id } = (await a.post('/webhooks', { url: URL, events: ['bill.stage_changed'] })).body;
    const first = await a.post(`/webhooks/${id}/test`);
    expect(first.body).toEqual({ event_id: expect.stringMatching(/^evt_[A-Za-z0-9_-]{22}$/), event_type: 'webhook.test', queued: true });
    const second = await a.post(`/webhooks/${id}/test`);
    const deliveries = (await a.get(`/webhooks/${id}/deliveries`)).body.deliveries;
    expect(deliveries.map((d: { event_id: string }) => d.event_id)).toEqual([second.body.event_id, first.body.event_id]);
    expect(deliveries[0]).toEqual({
      event_id: second.body.event_id,
      event_type: 'webhook.test',
      format: 'standard',
      status: 'pending',
      attempt: 0,
      status_code: null,
      error: null,
      duration_ms: null,
      attempted_at: null,
      next_attempt_at: expect.any(String),
      created_at: expect.any(String),
      attempts: [],
    });
    expect((await a.get(`/webhooks/${id}/deliveries?limit=1`)).body.deliveries).toHaveLength(1);
    expect((await a.post(`/webhooks/${id}/recover`, { since: '2026-01-01T00:00:00Z' })).body).toEqual({ id, since: '2026-01-01T00:00:00.000Z', queued: 0 });
    await a.del(`/webhooks/${id}`);
    expect(await t.services.dataSource.query('SELECT count(*)::int AS n FROM webhook_delivery WHERE endpoint_id = $1', [id])).toEqual([{ n: 0 }]);
  });

  it('are the owner’s: another account gets 404 for every operation', async () => {
    const owner = api((await user('pilot')).key);
    const other = api((await user('pro')).key);
    const { id } = (await owner.post('/webhooks', { url: URL, events: ['bill.stage_changed'] })).body;
    const answers = await Promise.all([
      other.get(`/webhooks/${id}`),
      other.patch(`/webhooks/${id}`, { active: true }),
      other.del(`/webhooks/${id}`),
      other.post(`/webhooks/${id}/rotate-secret`),
      other.post(`/webhooks/${id}/test`),
      other.get(`/webhooks/${id}/deliveries`),
      other.post(`/webhooks/${id}/recover`, { since: '2026-01-01T00:00:00Z' }),
    ]);
    expect(answers.map((r) => [r.status, r.body.detail])).toEqual(Array(7).fill([404, `webhook ${id} does not exist`]));
    expect((await other.get('/webhooks')).body).toEqual({ webhooks: [] });
    expect((await owner.get(`/webhooks/${id}`)).status).toBe(200);
  });

  it('are for pilot and above: free 403, pro-only types 403 for pilot, at most 10 endpoints', async () => {
    expect((await api((await user('free')).key).get('/webhooks')).status).toBe(403);
    const pilot = api((await user('pilot')).key);
    const proOnly = await pilot.post('/webhooks', { url: URL, events: ['bill.stage_changed', 'prediction.trending_up'] });
    expect(proOnly.status).toBe(403);
    expect(proOnly.body.detail).toMatch(/^prediction\.trending_up needs the pro tier/);
    const { id } = (await pilot.post('/webhooks', { url: URL, events: ['bill.stage_changed'] })).body;
    expect((await pilot.patch(`/webhooks/${id}`, { events: ['prediction.crossed_threshold'] })).status).toBe(403);

    const pro = api((await user('pro')).key);
    for (let i = 0; i < 10; i++) expect((await pro.post('/webhooks', { url: `${URL}/${i}`, events: ['prediction.trending_up'] })).status).toBe(200);
    const eleventh = await pro.post('/webhooks', { url: URL, events: ['bill.stage_changed'] });
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.detail).toBe('an account may have at most 10 webhook endpoints; delete one first');
  });

  it('refuse bad input with 400 naming it', async () => {
    const a = api((await user('pro')).key);
    const cases: [unknown, string | RegExp][] = [
      [{ url: URL, events: ['bill.passed'] }, /^unknown event type "bill.passed"; the event types are prediction.updated, /],
      [{ url: URL, events: [] }, /^events must be a non-empty array/],
      [{ url: URL }, 'events is required'],
      [{ events: ['bill.stage_changed'] }, 'url is required'],
      [{ url: 'ftp://hook.example.com/x', events: ['bill.stage_changed'] }, 'url must use http or https'],
      [{ url: 'not a url', events: ['bill.stage_changed'] }, 'url must be an absolute http or https URL'],
      [{ url: 'https://user:pw@hook.example.com/', events: ['bill.stage_changed'] }, 'url must not carry a user name or password'],
      [{ url: 'https://hook.example.com:0/hook', events: ['bill.stage_changed'] }, "url's port must be from 1 to 65535, not 0"],
      [{ url: URL, events: ['bill.stage_changed'], all_bills: 'yes' }, 'all_bills must be true or false'],
      [{ url: URL, events: ['bill.stage_changed'], description: 'x'.repeat(501) }, 'description must be a string of at most 500 characters'],
      [{ url: URL, events: ['bill.stage_changed'], secret: 'mine' }, /^unknown field secret in the JSON body/],
    ];
    for (const [body, detail] of cases) {
      const res = await a.post('/webhooks', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      if (typeof detail === 'string') expect(res.body.detail).toBe(detail);
      else expect(res.body.detail).toMatch(detail);
    }
    const { id } = (await a.post('/webhooks', { url: URL, events: ['bill.stage_changed'] })).body;
    expect((await a.patch(`/webhooks/${id}`, {})).body.detail).toBe('give at least one of url, events, description, all_bills, active');
    expect((await a.post(`/webhooks/${id}/recover`, { since: 'yesterday' })).status).toBe(400);
    expect((await a.get(`/webhooks/${id}/deliveries?limit=500`)).body.detail).toBe('limit must be an integer from 1 to 100');
    expect((await a.get('/webhooks/abc')).body.detail).toBe('id must be a positive integer');
  });

  it('refuse URLs that point at private, loopback, link-local or metadata addresses (SSRF)', async () => {
    const a = api((await user('pilot')).key);
    const refused: [string, RegExp][] = [
      ['http://127.0.0.1:8080/', /^address not allowed: 127\.0\.0\.1 is a loopback, private or special-purpose address\. To test with a receiver on this machine/],
      ['http://[::1]/', /::1 is a loopback, private/],
      ['http://10.0.0.5/', /loopback, private/],
      ['http://192.168.1.1/', /loopback, private/],
      // forms found accepted: loopback inside IPv6 (compatible, translated, NAT64, 6to4), site-local, IETF protocol assignments
      ['http://[::127.0.0.1]/', /special-purpose/],
      ['http://[::ffff:0:127.0.0.1]/', /special-purpose/],
      ['http://[64:ff9b::127.0.0.1]/', /special-purpose/],
      ['http://[2002:7f00:1::]/', /special-purpose/],
      ['http://[fec0::1]/', /special-purpose/],
      ['http://192.0.0.1/', /special-purpose/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local, metadata/],
      ['http://[fe80::1]/', /link-local/],
      ['http://0.0.0.0/', /unspecified/],
      ['http://[::ffff:169.254.169.254]/', /link-local/],
      ['https://private.example.com/', /private\.example\.com resolves to 10\.1\.2\.3, a loopback, private or special-purpose address/],
      ['https://mixed.example.com/', /resolves to 169\.254\.169\.254/],
      ['https://nowhere.example.com/', /could not be resolved/],
    ];
    for (const [url, detail] of refused) {
      const res = await a.post('/webhooks', { url, events: ['bill.stage_changed'] });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.body.detail).toMatch(detail);
    }
  });

  it('say how to test with a local receiver when they refuse one, and not where the setting would not help', async () => {
    const { key } = await user('pilot');
    const a = api(key);
    const local = await a.post('/webhooks', { url: 'http://127.0.0.1:3000/hook', events: ['bill.stage_changed'] });
    expect(local.status).toBe(400);
    expect(local.body.detail).toBe(
      'address not allowed: 127.0.0.1 is a loopback, private or special-purpose address. To test with a receiver on this machine or your own network, start the server with WEBHOOK_ALLOW_PRIVATE=true (an operator setting; it still refuses link-local, metadata and reserved addresses)',
    );
    const viaGraphql = await t.graphql('mutation { createWebhook(input: { url: "http://10.0.0.5/hook", events: [BILL_STAGE_CHANGED] }) { secret } }', { key });
    expect(viaGraphql.body.errors[0].message).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/);
    // metadata stays refused with the setting too: saying it would mislead
    expect((await a.post('/webhooks', { url: 'http://169.254.169.254/', events: ['bill.stage_changed'] })).body.detail).not.toMatch(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it('keep pro-only event types after a downgrade from pro, shown inactive with the reason, active again after an upgrade', async () => {
    const email = `wh${++n}@example.com`;
    const key = await t.userWithKey('pro', email);
    const a = api(key);
    const created = await a.post('/webhooks', { url: URL, events: ['bill.stage_changed', 'prediction.trending_up'] });
    expect(created.body).toMatchObject({ inactive_events: [], inactive_reason: null });
    await t.services.accounts.setTier(email, 'pilot');
    const downgraded = await a.get(`/webhooks/${created.body.id}`);
    expect(downgraded.body).toMatchObject({
      events: ['bill.stage_changed', 'prediction.trending_up'],
      active: true,
      inactive_events: ['prediction.trending_up'],
      inactive_reason: 'prediction.trending_up needs the pro tier: not sent while the account is on the pilot tier',
    });
    const graphql = await t.graphql(`{ webhook(id: ${created.body.id}) { events inactiveEvents inactiveReason } }`, { key });
    expect(graphql.body.data.webhook).toEqual({
      events: ['BILL_STAGE_CHANGED', 'PREDICTION_TRENDING_UP'],
      inactiveEvents: ['PREDICTION_TRENDING_UP'],
      inactiveReason: 'prediction.trending_up needs the pro tier: not sent while the account is on the pilot tier',
    });
    await t.services.accounts.setTier(email, 'pro');
    expect((await a.get(`/webhooks/${created.body.id}`)).body).toMatchObject({ inactive_events: [], inactive_reason: null });
  });

  it('charge an API call like every request', async () => {
    const a = api((await user('pilot')).key);
    const before = Number((await a.get('/webhooks')).headers['x-ratelimit-remaining']);
    const after = Number((await a.get('/webhooks')).headers['x-ratelimit-remaining']);
    expect(after).toBe(before - 1);
  });
});

describe('webhook endpoints over GraphQL', () => {
  it('run the same operations with the event types as an enum', async () => {
    const { key } = await user('pro');
    const created = await t.graphql('mutation { createWebhook(input: { url: "https://hook.example.com/g", events: [PREDICTION_TRENDING_UP, BILL_STAGE_CHANGED], allBills: true }) { secret endpoint { id events allBills active } } }', { key });
    expect(created.body.errors).toBeUndefined();
    const { secret, endpoint } = created.body.data.createWebhook;
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ events: ['PREDICTION_TRENDING_UP', 'BILL_STAGE_CHANGED'], allBills: true, active: true });
    const listed = await t.graphql('{ webhooks { id url } webhook(id: ' + endpoint.id + ') { id } }', { key });
    expect(listed.body.data).toEqual({ webhooks: [{ id: endpoint.id, url: 'https://hook.example.com/g' }], webhook: { id: endpoint.id } });
    const test = await t.graphql(`mutation { testWebhook(id: ${endpoint.id}) { eventId eventType } }`, { key });
    expect(test.body.data.testWebhook.eventType).toBe('webhook.test');
    const deliveries = await t.graphql(`{ webhookDeliveries(id: ${endpoint.id}) { eventId status attempt } }`, { key });
    expect(deliveries.body.data.webhookDeliveries).toEqual([{ eventId: test.body.data.testWebhook.eventId, status: 'pending', attempt: 0 }]);
    const unknown = await t.graphql('mutation { createWebhook(input: { url: "https://hook.example.com/g", events: [BILL_PASSED] }) { secret } }', { key });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toMatch(/BILL_PASSED/);
    expect((await t.graphql(`mutation { deleteWebhook(id: ${endpoint.id}) }`, { key })).body.data).toEqual({ deleteWebhook: true });
  });

  it('answer NOT_FOUND for another account’s endpoint and FORBIDDEN for pro-only types below pro', async () => {
    const owner = await user('pro');
    const other = await user('pilot');
    const id = (await t.graphql('mutation { createWebhook(input: { url: "https://hook.example.com/g", events: [BILL_STAGE_CHANGED] }) { endpoint { id } } }', { key: owner.key })).body.data.createWebhook.endpoint.id;
    const foreign = await t.graphql(`{ webhook(id: ${id}) { id } }`, { key: other.key });
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const proOnly = await t.graphql('mutation { createWebhook(input: { url: "https://hook.example.com/g", events: [PREDICTION_CROSSED_THRESHOLD] }) { secret } }', { key: other.key });
    expect(proOnly.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
