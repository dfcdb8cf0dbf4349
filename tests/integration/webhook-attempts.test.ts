import { DeliveryWorker } from '../../src/events/webhooks/delivery-worker';
import { RETRY_DELAYS_MS } from '../../src/events/webhooks/retry-schedule';
import { startTestApp, type TestApp } from '../support/test-app';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// Every attempt of a delivery stays listed (issue 21, finding 7), and an address refused at send
// time is recorded as such, never as a connection error.

let t: TestApp;
let clock: number;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startTestApp({ webhookUrlPolicy: { allowPrivate: true } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t.close();
});
beforeEach(() => {
  clock = Date.parse('2026-11-22T12:00:00Z');
});

const worker = (urlPolicy = { allowPrivate: true } as { allowPrivate: boolean; resolve?: (host: string) => Promise<string[]> }) =>
  new DeliveryWorker(t.services.dataSource, {
    urlPolicy,
    secretsFor: (endpoint, at) => t.services.webhooks.signingSecrets(endpoint, at),
    embedded: true,
    logger: t.services.logger,
    now: () => new Date(clock),
    random: () => 0.5,
    timeoutMs: 500,
  });

let n = 0;
async function endpointWithKey(url: string) {
  const email = `attempts${++n}@example.com`;
  const key = await t.userWithKey('pilot', email);
  const accountId = await t.accountIdOf(email);
  const { endpoint } = await t.services.webhooks.create(accountId, 'pilot', { url, events: ['bill.stage_changed'] });
  return { key, accountId, id: endpoint.id };
}

it('lists every attempt of a delivery, newest first: a 500 then a 200 are both kept, through REST and GraphQL', async () => {
  const r = await startReceiver(200);
  receivers.push(r);
  const e = await endpointWithKey(r.url);
  const w = worker();
  const event = await t.services.webhooks.queueTest(e.accountId, e.id);
  r.next.push(500);
  await w.runDue();
  clock += RETRY_DELAYS_MS[0];
  await w.runDue();
  expect(r.received).toHaveLength(2);

  const rest = await t.http().get(`/api/v1/webhooks/${e.id}/deliveries`).set('authorization', `Bearer ${e.key}`);
  expect(rest.status).toBe(200);
  expect(rest.body.deliveries).toHaveLength(1);
  const [delivery] = rest.body.deliveries;
  expect(delivery).toMatchObject({ event_id: event.id, status: 'delivered', attempt: 2, status_code: 200 });
  expect(delivery.attempts).toEqual([
    { attempt: 2, status_code: 200, error: null, duration_ms: expect.any(Number), attempted_at: new Date(clock).toISOString() },
    { attempt: 1, status_code: 500, error: 'HTTP 500', duration_ms: expect.any(Number), attempted_at: new Date(clock - RETRY_DELAYS_MS[0]).toISOString() },
  ]);

  const gql = await t.graphql(`{ webhookDeliveries(id: ${e.id}) { eventId attempts { attempt statusCode error attemptedAt } } }`, { key: e.key });
  expect(gql.body.errors).toBeUndefined();
  expect(gql.body.data.webhookDeliveries[0].attempts.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode])).toEqual([
    [2, 200],
    [1, 500],
  ]);
});

it('lists a queued delivery with no attempts yet', async () => {
  const e = await endpointWithKey('http://127.0.0.1:9/hook');
  await t.services.webhooks.queueTest(e.accountId, e.id);
  const rest = await t.http().get(`/api/v1/webhooks/${e.id}/deliveries`).set('authorization', `Bearer ${e.key}`);
  expect(rest.body.deliveries).toEqual([expect.objectContaining({ status: 'pending', attempt: 0, attempts: [] })]);
});

it('records an address refused at send time as "address not allowed", never as a connection error', async () => {
  const e = await endpointWithKey('http://127.0.0.1:9/hook');
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, 'http://rebound.example.com:9/hook']);
  await t.services.webhooks.queueTest(e.accountId, e.id);
  // the name resolves, at send time, to loopback (port 9: a connection there would be refused), and loopback is not allowed
  await worker({ allowPrivate: false, resolve: async () => ['127.0.0.1'] }).runDue();
  let [record] = await t.services.webhooks.deliveries(e.accountId, e.id, 10);
  expect(record).toMatchObject({ status: 'pending', attempt: 1, lastStatusCode: null, lastError: 'address not allowed' });
  expect(record.attempts).toEqual([expect.objectContaining({ attempt: 1, error: 'address not allowed', statusCode: null })]);
  // a literal address in the URL, the same
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, 'http://169.254.169.254/latest']);
  clock += RETRY_DELAYS_MS[0];
  await worker({ allowPrivate: true }).runDue();
  [record] = await t.services.webhooks.deliveries(e.accountId, e.id, 10);
  expect(record.lastError).toBe('address not allowed');
  // a name that does not resolve says so (nothing about an address or port is revealed by it)
  clock += RETRY_DELAYS_MS[1];
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, 'http://nowhere.example.com/hook']);
  await worker({
    allowPrivate: false,
    resolve: async () => {
      throw new Error('ENOTFOUND');
    },
  }).runDue();
  [record] = await t.services.webhooks.deliveries(e.accountId, e.id, 10);
  expect(record.lastError).toMatch(/could not be resolved/);
  expect(record.attempts.map((a) => a.attempt)).toEqual([3, 2, 1]);
});

it('lists the one attempt of a delivery that succeeded at once, then a recovered delivery with every attempt of both rounds', async () => {
  const r = await startReceiver(200);
  receivers.push(r);
  const e = await endpointWithKey(r.url);
  await t.services.webhooks.queueTest(e.accountId, e.id);
  await worker().runDue();
  let [record] = await t.services.webhooks.deliveries(e.accountId, e.id, 10);
  expect(record.attempts).toEqual([{ attempt: 1, statusCode: 200, error: null, durationMs: expect.any(Number), attemptedAt: new Date(clock) }]);

  // made a delivery that failed for good (its last attempt a 503, recorded as every failure is), recovered, then delivered at the first attempt of its new schedule
  await t.services.dataSource.query(`UPDATE webhook_delivery SET status = 'failed', last_status_code = 503, last_error = 'HTTP 503' WHERE endpoint_id = $1`, [e.id]);
  await t.services.dataSource.query(
    `INSERT INTO webhook_attempt (delivery_id, attempt, status_code, error, duration_ms, attempted_at) SELECT id, 1, 503, 'HTTP 503', 5, last_attempt_at FROM webhook_delivery WHERE endpoint_id = $1`,
    [e.id],
  );
  expect(await t.services.webhooks.recover(e.accountId, e.id, new Date(0))).toBe(1);
  clock += 60_000;
  await worker().runDue();
  [record] = await t.services.webhooks.deliveries(e.accountId, e.id, 10);
  expect(record.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
    [1, 200],
    [1, 503],
  ]);
});
