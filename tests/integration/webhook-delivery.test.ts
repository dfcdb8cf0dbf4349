import net from 'node:net';
import { Webhook } from 'standardwebhooks';
import { CLAIM_DUE } from '../../src/events/webhooks/delivery-queries';
import { DeliveryWorker, type DeliveryWorkerOptions, newDeliveryCounts } from '../../src/events/webhooks/delivery-worker';
import { newEventId } from '../../src/events/payloads';
import { insertDeliveries } from '../../src/events/webhooks/outbox';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/events/webhooks/retry-schedule';
import { startTestApp, type TestApp } from '../support/test-app';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// The delivery worker against receivers on loopback: signatures, retries, refusals, rotation, disabling.

let t: TestApp;
let clock: number;
const now = () => new Date(clock);
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startTestApp({ webhookUrlPolicy: { allowPrivate: true } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t.close();
});
beforeEach(async () => {
  // the test app's real-time clock (queued rows are due from then); each test starts with an empty outbox
  clock = Date.parse('2026-11-22T12:00:00Z');
  await t.services.dataSource.query('DELETE FROM webhook_endpoint');
});

const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
};
const worker = (options: Partial<DeliveryWorkerOptions> = {}) =>
  new DeliveryWorker(t.services.dataSource, {
    urlPolicy: { allowPrivate: true },
    secretsFor: (endpoint, at) => t.services.webhooks.signingSecrets(endpoint, at),
    embedded: true,
    logger: t.services.logger,
    now,
    random: () => 0.5, // no jitter: the schedule exactly
    timeoutMs: 500,
    ...options,
  });

let n = 0;
async function endpointFor(url: string, tier: 'pilot' | 'pro' = 'pilot') {
  const email = `delivery${++n}@example.com`;
  await t.userWithKey(tier, email);
  const accountId = await t.accountIdOf(email);
  const { endpoint, secret } = await t.services.webhooks.create(accountId, tier, { url, events: ['bill.stage_changed'] });
  return { accountId, id: endpoint.id, secret };
}
const deliveries = (accountId: number, id: number) => t.services.webhooks.deliveries(accountId, id, 100);

it('signs a delivery so that the standardwebhooks package verifies it, and records it delivered', async () => {
  const r = await receiver(200);
  const e = await endpointFor(r.url);
  const event = await t.services.webhooks.queueTest(e.accountId, e.id);
  await worker().runDue();

  expect(r.received).toHaveLength(1);
  const { headers, body } = r.received[0];
  expect(headers['webhook-id']).toBe(event.id);
  expect(headers['content-type']).toBe('application/json');
  const verified = new Webhook(e.secret).verify(body, headers as Record<string, string>);
  expect(verified).toEqual({ id: event.id, type: 'webhook.test', timestamp: event.timestamp, data: expect.objectContaining({ webhook_id: e.id }) });
  // a receiver holding another secret refuses it
  expect(() => new Webhook('whsec_' + Buffer.alloc(32, 7).toString('base64')).verify(body, headers as Record<string, string>)).toThrow();
  const [record] = await deliveries(e.accountId, e.id);
  expect(record).toMatchObject({ status: 'delivered', attempt: 1, lastStatusCode: 200, lastError: null });
});

it('retries after a 500, a timeout and a refused connection on the schedule, then delivers with the same webhook-id', async () => {
  const r = await receiver(200);
  const e = await endpointFor(r.url);
  const w = worker();
  const event = await t.services.webhooks.queueTest(e.accountId, e.id);

  r.next.push(500);
  await w.runDue();
  let [record] = await deliveries(e.accountId, e.id);
  expect(record).toMatchObject({ status: 'pending', attempt: 1, lastStatusCode: 500, lastError: 'HTTP 500' });
  expect(record.nextAttemptAt.getTime() - clock).toBe(RETRY_DELAYS_MS[0]);

  await w.runDue(); // not due yet
  expect(r.received).toHaveLength(1);

  clock += RETRY_DELAYS_MS[0];
  r.next.push('hang');
  await w.runDue();
  [record] = await deliveries(e.accountId, e.id);
  expect(record).toMatchObject({ status: 'pending', attempt: 2, lastStatusCode: null, lastError: 'no complete answer within 0.5 s' });
  expect(record.nextAttemptAt.getTime() - clock).toBe(RETRY_DELAYS_MS[1]);

  // a refused connection: the endpoint moves to a port nobody listens on
  const closed = await freePort();
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, `http://127.0.0.1:${closed}/hook`]);
  clock += RETRY_DELAYS_MS[1];
  await w.runDue();
  [record] = await deliveries(e.accountId, e.id);
  expect(record).toMatchObject({ status: 'pending', attempt: 3, lastError: 'connection refused (ECONNREFUSED)' });

  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, r.url]);
  clock += RETRY_DELAYS_MS[2];
  await w.runDue();
  [record] = await deliveries(e.accountId, e.id);
  expect(record).toMatchObject({ status: 'delivered', attempt: 4, lastStatusCode: 200 });
  expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([event.id, event.id, event.id]);
  expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
  for (const x of r.received) expect(() => new Webhook(e.secret).verify(x.body, x.headers as Record<string, string>)).not.toThrow();
});

it('spreads each wait by up to 10% either way', async () => {
  const { retryDelayMs } = await import('../../src/events/webhooks/retry-schedule');
  expect(retryDelayMs(1, () => 0)).toBe(4_500);
  expect(retryDelayMs(1, () => 1)).toBe(5_500);
  expect(retryDelayMs(9, () => 0.5)).toBe(12 * 3_600_000);
  expect(retryDelayMs(10, () => 0.5)).toBeNull();
});

it('gives up after the last retry, and recover queues it again from a fresh schedule', async () => {
  const r = await receiver(503);
  const e = await endpointFor(r.url);
  const w = worker();
  await t.services.webhooks.queueTest(e.accountId, e.id);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    await w.runDue();
    clock += RETRY_DELAYS_MS[attempt - 1] ?? 0;
  }
  let [record] = await deliveries(e.accountId, e.id);
  expect(record).toMatchObject({ status: 'failed', attempt: MAX_ATTEMPTS, lastStatusCode: 503 });
  expect(r.received).toHaveLength(MAX_ATTEMPTS);

  expect(await t.services.webhooks.recover(e.accountId, e.id, new Date(0))).toBe(1);
  r.next.push(200);
  await w.runDue();
  [record] = await deliveries(e.accountId, e.id);
  expect(record).toMatchObject({ status: 'delivered', attempt: 1 });
});

it('disables an endpoint whose every attempt failed for 3 days, with the reason; its owner re-enables it', async () => {
  const r = await receiver(500);
  const e = await endpointFor(r.url);
  const w = worker();
  // a new event every 6 hours, every attempt refused, for 3 days (events, not tests: at most 10 tests may be pending)
  for (let hours = 0; hours <= 72; hours += 6) {
    let endpoint = await t.services.webhooks.get(e.accountId, e.id);
    expect({ hours, active: endpoint.active }).toEqual({ hours, active: true });
    const event = { id: newEventId(), type: 'bill.stage_changed', timestamp: now().toISOString(), data: { bill_id: 2900, stage: 'second_reading' } } as const;
    await insertDeliveries(t.services.dataSource.manager, [{ endpointId: e.id, event }], now());
    await w.runDue();
    if (hours < 72) clock += 6 * 3_600_000;
  }
  let endpoint = await t.services.webhooks.get(e.accountId, e.id);
  expect(endpoint.active).toBe(false);
  expect(endpoint.disabledReason).toMatch(/^every delivery attempt has failed since 2026-11-22T12:00:00.000Z \(the last: HTTP 500\)/);
  const sent = r.received.length;
  clock += 24 * 3_600_000;
  await w.runDue();
  expect(r.received).toHaveLength(sent); // nothing is sent to a disabled endpoint

  endpoint = await t.services.webhooks.update(e.accountId, 'pilot', e.id, { active: true });
  expect(endpoint).toMatchObject({ active: true, disabledReason: null });
  r.next.push(200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200);
  await w.runDue();
  expect(r.received.length).toBeGreaterThan(sent);
});

it('signs with both secrets for 24 hours after a rotation, then with the new one alone', async () => {
  const r = await receiver(200);
  const e = await endpointFor(r.url);
  const rotated = await t.services.webhooks.rotateSecret(e.accountId, e.id);
  await t.services.webhooks.queueTest(e.accountId, e.id);
  await worker().runDue();
  const first = r.received[0];
  expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2);
  // receivers holding either secret verify it
  expect(() => new Webhook(e.secret).verify(first.body, first.headers as Record<string, string>)).not.toThrow();
  expect(() => new Webhook(rotated.secret).verify(first.body, first.headers as Record<string, string>)).not.toThrow();

  clock += 24 * 3_600_000 + 1;
  await t.services.webhooks.queueTest(e.accountId, e.id);
  await worker().runDue();
  const second = r.received[1];
  expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
  expect(() => new Webhook(rotated.secret).verify(second.body, second.headers as Record<string, string>)).not.toThrow();
  expect(() => new Webhook(e.secret).verify(second.body, second.headers as Record<string, string>)).toThrow();
});

it('checks the address again at delivery time: a name that now resolves to a refused address is not contacted', async () => {
  const r = await receiver(200);
  const e = await endpointFor(r.url);
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, `http://rebound.example.com:${r.port}/hook`]);
  await t.services.webhooks.queueTest(e.accountId, e.id);
  // DNS now answers the metadata address
  await worker({ urlPolicy: { allowPrivate: true, resolve: async () => ['169.254.169.254'] } }).runDue();
  let [record] = await deliveries(e.accountId, e.id);
  expect(record).toMatchObject({ status: 'pending', attempt: 1, lastStatusCode: null, lastError: 'address not allowed' });
  // and loopback is refused once private addresses are not allowed
  clock += RETRY_DELAYS_MS[0];
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, r.url]);
  await worker({ urlPolicy: { allowPrivate: false } }).runDue();
  [record] = await deliveries(e.accountId, e.id);
  expect(record.lastError).toBe('address not allowed');
  expect(r.received).toHaveLength(0);
  // the name resolves to the receiver's address again: it is connected to the checked address
  clock += RETRY_DELAYS_MS[1];
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, `http://rebound.example.com:${r.port}/hook`]);
  await worker({ urlPolicy: { allowPrivate: true, resolve: async () => ['127.0.0.1'] } }).runDue();
  expect(r.received).toHaveLength(1);
  expect(r.received[0].headers.host).toBe(`rebound.example.com:${r.port}`);
});

it('keeps a connection open between attempts, and reuses it only for the address checked for the attempt', async () => {
  const r = await receiver(200);
  const e = await endpointFor(r.url);
  await t.services.webhooks.queueTest(e.accountId, e.id);
  await worker().runDue();
  await t.services.webhooks.queueTest(e.accountId, e.id);
  await worker().runDue();
  expect(r.received).toHaveLength(2);
  expect(r.connections).toBe(1);
  // the same receiver under a name that now resolves to 127.0.0.2: a new connection, to that address
  const other = await receiver(200);
  const f = await endpointFor(other.url);
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [f.id, `http://moved.example.com:${other.port}/hook`]);
  await t.services.webhooks.queueTest(f.accountId, f.id);
  await worker({ urlPolicy: { allowPrivate: true, resolve: async () => ['127.0.0.1'] } }).runDue();
  await t.services.webhooks.queueTest(f.accountId, f.id);
  await worker({ urlPolicy: { allowPrivate: true, resolve: async () => ['127.0.0.2'] } }).runDue();
  // the receiver listens on 127.0.0.1 only: the attempt checked for 127.0.0.2 cannot have used the open connection
  const [last] = await deliveries(f.accountId, f.id);
  expect(last).toMatchObject({ status: 'pending', lastStatusCode: null, lastError: 'connection refused (ECONNREFUSED)' });
  expect(other.received).toHaveLength(1);
});

it('follows no redirect, and reads at most 64 KB of an answer', async () => {
  const r = await receiver((_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end());
  const e = await endpointFor(r.url);
  await t.services.webhooks.queueTest(e.accountId, e.id);
  await worker().runDue();
  expect((await deliveries(e.accountId, e.id))[0]).toMatchObject({ status: 'pending', lastStatusCode: 302, lastError: 'HTTP 302 (redirects are not followed)' });

  const big = await receiver((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write(Buffer.alloc(64 * 1024 + 1, 'x'));
    // and never ends: the attempt must not wait for the rest
  });
  const f = await endpointFor(big.url);
  await t.services.webhooks.queueTest(f.accountId, f.id);
  await worker({ timeoutMs: 5_000 }).runDue();
  const [record] = await deliveries(f.accountId, f.id);
  expect(record).toMatchObject({ status: 'delivered', lastStatusCode: 200 });
  expect(record.lastDurationMs).toBeLessThan(5_000);
});

it('lets a slow receiver delay only itself', async () => {
  const slow = await receiver('hang');
  const fast = await receiver(200);
  const s = await endpointFor(slow.url);
  const f = await endpointFor(fast.url);
  for (let i = 0; i < 8; i++) await t.services.webhooks.queueTest(s.accountId, s.id);
  const w = worker({ timeoutMs: 10_000, perEndpoint: 2, pollMs: 20 });
  await w.start();
  await slow.receivedAtLeast(2);
  await t.services.webhooks.queueTest(f.accountId, f.id);
  w.wake();
  await fast.receivedAtLeast(1);
  // the slow endpoint holds its 2 slots and no more
  expect(slow.received).toHaveLength(2);
  await w.stop(0);
  // attempts cut short by the stop are handed back, due at once and not counted
  const slowRecords = await deliveries(s.accountId, s.id);
  expect(slowRecords.every((d) => d.status === 'pending' && d.attempt === 0 && d.claimedAt === null)).toBe(true);
});

it('on the embedded database, looks for due rows when woken and when a retry it scheduled is due, not every quarter second meanwhile', async () => {
  const r = await receiver(200);
  const e = await endpointFor(r.url);
  const query = jest.spyOn(t.services.dataSource, 'query');
  const claims = () => query.mock.calls.filter(([sql]) => sql === CLAIM_DUE).length;
  // the real clock, and the shortest wait the schedule allows (4.5 s)
  const w = worker({ now: undefined, random: () => 0 });
  try {
    await w.start();
    r.next.push(500);
    await t.services.webhooks.queueTest(e.accountId, e.id);
    w.wake();
    await r.receivedAtLeast(1);
    // the looks that follow a wake are over within half a second
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const beforeIdle = claims();
    await r.receivedAtLeast(2);
    // 3.5 s of waiting for the retry: polled every 250 ms that would be 14 looks; the retry's own is one
    expect(claims() - beforeIdle).toBeLessThanOrEqual(2);
    // successes are written in a batch a moment after the answer
    await w.stop();
    const [record] = await deliveries(e.accountId, e.id);
    expect(record).toMatchObject({ status: 'delivered', attempt: 2 });
  } finally {
    query.mockRestore();
    await w.stop();
  }
});

it('counts attempts by outcome for /metrics', async () => {
  const counts = newDeliveryCounts();
  const r = await receiver(200);
  const e = await endpointFor(r.url);
  await t.services.webhooks.queueTest(e.accountId, e.id);
  r.next.push(500);
  const w = worker({ counts });
  await w.runDue();
  clock += RETRY_DELAYS_MS[0];
  await w.runDue();
  expect(counts).toMatchObject({ delivered: 1, http_error: 1 });

  Object.assign(t.services.events.deliveryCounts, counts);
  const metrics = await t.http().get('/metrics');
  expect(metrics.text).toMatch(/bill_progress_webhook_deliveries_total\{outcome="delivered"\} 1/);
  expect(metrics.text).toMatch(/bill_progress_webhook_deliveries_total\{outcome="http_error"\} 1/);
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
