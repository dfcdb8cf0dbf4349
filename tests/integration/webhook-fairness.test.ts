import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../../src/events/webhooks/delivery-worker';
import { MAX_PENDING_TESTS } from '../../src/services/webhook.service';
import { startTestApp, type TestApp } from '../support/test-app';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// One account's slow receivers cannot hold the deliveries of another (issue 21, finding 3).

let t: TestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startTestApp({ webhookUrlPolicy: { allowPrivate: true } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t.close();
});
beforeEach(async () => {
  await t.services.dataSource.query('DELETE FROM webhook_endpoint');
});

const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
};
const worker = (options: Partial<DeliveryWorkerOptions>) =>
  new DeliveryWorker(t.services.dataSource, {
    urlPolicy: { allowPrivate: true },
    secretsFor: (endpoint, at) => t.services.webhooks.signingSecrets(endpoint, at),
    embedded: true,
    logger: t.services.logger,
    pollMs: 20,
    ...options,
  });

let n = 0;
async function account() {
  const email = `fair${++n}@example.com`;
  const key = await t.userWithKey('pilot', email);
  return { key, accountId: await t.accountIdOf(email) };
}
const endpoint = async (accountId: number, url: string) => (await t.services.webhooks.create(accountId, 'pilot', { url, events: ['bill.stage_changed'] })).endpoint.id;

it("sends another account's delivery before one account's backlog at hanging receivers is drained", async () => {
  const hanging = await receiver('hang');
  const a = await account();
  let queued = 0;
  for (let e = 0; e < 10; e++) {
    const id = await endpoint(a.accountId, hanging.url);
    for (let i = 0; i < MAX_PENDING_TESTS; i++, queued++) await t.services.webhooks.queueTest(a.accountId, id);
  }
  const fast = await receiver(200);
  const b = await account();
  const bEndpoint = await endpoint(b.accountId, fast.url);
  // far more slots than one endpoint takes, fewer than the account's endpoints would fill
  const w = worker({ total: 20, perEndpoint: 4, timeoutMs: 300 });
  await w.start();
  try {
    await hanging.receivedAtLeast(10);
    await t.services.webhooks.queueTest(b.accountId, bEndpoint);
    w.wake();
    await fast.receivedAtLeast(1);
    // B's delivery went out while most of A's first attempts were still waiting
    expect(hanging.received.length).toBeLessThan(queued / 2);
  } finally {
    await w.stop(0);
  }
});

it('gives a receiver that timed out one attempt at a time until it answers again', async () => {
  let open = 0;
  let most = 0;
  let answering = false;
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    open += 1;
    arrivals.push(open);
    most = Math.max(most, open);
    res.on('close', () => (open -= 1));
    if (answering) setTimeout(() => res.writeHead(200).end(), 30);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const a = await account();
  const id = await endpoint(a.accountId, url);
  for (let i = 0; i < MAX_PENDING_TESTS; i++) await t.services.webhooks.queueTest(a.accountId, id);
  // a clock that stands still: the retries of the attempts that timed out never come due here
  const w = worker({ perEndpoint: 4, timeoutMs: 200, now: () => new Date('2100-01-01T00:00:00Z') });
  try {
    await w.start();
    while (arrivals.length < 8) await new Promise((resolve) => setTimeout(resolve, 20));
    // the first 4 went together; after they timed out, one at a time
    expect(arrivals.slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(Math.max(...arrivals.slice(4))).toBe(1);
    // it answers: its slots come back
    answering = true;
    most = 0;
    while (arrivals.length < MAX_PENDING_TESTS) await new Promise((resolve) => setTimeout(resolve, 20));
    await t.services.dataSource.query(`UPDATE webhook_delivery SET status = 'failed' WHERE endpoint_id = $1`, [id]);
    for (let i = 0; i < 8; i++) await t.services.webhooks.queueTest(a.accountId, id);
    w.wake();
    while (arrivals.length < MAX_PENDING_TESTS + 4) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(most).toBeGreaterThan(1);
  } finally {
    await w.stop(0);
    server.closeAllConnections();
    server.close();
  }
});

it('refuses a test event while an endpoint already has the most pending, with 429 and the limit named', async () => {
  const a = await account();
  const id = await endpoint(a.accountId, 'http://127.0.0.1:9/hook');
  const test = () => t.http().post(`/api/v1/webhooks/${id}/test`).set('authorization', `Bearer ${a.key}`);
  for (let i = 0; i < MAX_PENDING_TESTS; i++) expect((await test()).status).toBe(200);
  const refused = await test();
  expect(refused.status).toBe(429);
  expect(refused.body.detail).toMatch(new RegExp(`at most ${MAX_PENDING_TESTS} test events`));
  const gql = await t.graphql(`mutation { testWebhook(id: ${id}) { eventId } }`, { key: a.key });
  expect(gql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  // once they are no longer pending, tests are accepted again
  await t.services.dataSource.query(`UPDATE webhook_delivery SET status = 'failed' WHERE endpoint_id = $1`, [id]);
  expect((await test()).status).toBe(200);
});
