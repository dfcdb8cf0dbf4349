import type { ServiceEvent } from '../../src/events/event';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../../src/events/webhooks/delivery-worker';
import { startTestApp, type TestApp } from '../support/test-app';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// The outbox's rows handed to the worker in memory after their commit (src/events/webhooks/handoff.ts).

let t: TestApp;
let clock: number;
const receivers: Receiver[] = [];
const workers: DeliveryWorker[] = [];
beforeAll(async () => {
  t = await startTestApp({ webhookUrlPolicy: { allowPrivate: true } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t.close();
});
beforeEach(async () => {
  clock = Date.now();
  await t.services.dataSource.query('DELETE FROM webhook_endpoint');
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop(0)));
});

const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
};
/** A worker that finds nothing by polling during a test (its one look is at start): what it sends came through the handoff. */
const attachedWorker = async (options: Partial<DeliveryWorkerOptions> = {}) => {
  const w = new DeliveryWorker(t.services.dataSource, {
    urlPolicy: { allowPrivate: true },
    secretsFor: (endpoint, at) => t.services.webhooks.signingSecrets(endpoint, at),
    embedded: true,
    logger: t.services.logger,
    now: () => new Date(clock),
    pollMs: 600_000,
    ...options,
  });
  workers.push(w);
  await w.start();
  const detach = t.services.events.handoff.attach(w);
  workers.push({ stop: async () => detach() } as unknown as DeliveryWorker);
  return w;
};

let n = 0;
async function endpointFor(url: string) {
  const email = `handoff${++n}@example.com`;
  await t.userWithKey('pilot', email);
  const accountId = await t.accountIdOf(email);
  const { endpoint } = await t.services.webhooks.create(accountId, 'pilot', { url, events: ['bill.stage_changed'], allBills: true });
  return endpoint.id;
}
const event = (id: string): ServiceEvent => ({ id, type: 'bill.stage_changed', timestamp: '2021-11-26T09:00:00.000Z', data: { bill_id: 2900, stage: 'second_reading' } });
const rows = async () =>
  (await t.services.dataSource.query('SELECT endpoint_id, event_id, status, attempt, claimed_at FROM webhook_delivery ORDER BY id')) as { endpoint_id: number; event_id: string; status: string; attempt: number; claimed_at: Date | null }[];
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

it('writes the rows claimed in the event’s transaction and sends them once it has committed, with no claim; a rolled-back one sends nothing', async () => {
  const r = await receiver(200);
  const ids = [await endpointFor(r.url), await endpointFor(r.url), await endpointFor(r.url)];
  await attachedWorker();

  await expect(
    t.services.dataSource.transaction(async (manager) => {
      await t.services.events.outbox(manager, [event('evt_h_rolled_back')]);
      throw new Error('refresh failed');
    }),
  ).rejects.toThrow('refresh failed');
  const committed = [event('evt_h1')];
  await t.services.dataSource.transaction(async (manager) => {
    await t.services.events.outbox(manager, committed);
    // written claimed, and not sent while the transaction is open
    expect((await manager.query('SELECT attempt, claimed_at FROM webhook_delivery')).every((d: { attempt: number; claimed_at: Date | null }) => d.attempt === 1 && d.claimed_at)).toBe(true);
  });
  await settle();
  expect(r.received).toHaveLength(0);

  t.services.events.handoff.committed(committed);
  await r.receivedAtLeast(3);
  expect(r.received.map((d) => d.headers['webhook-id'])).toEqual(['evt_h1', 'evt_h1', 'evt_h1']);
  await settle();
  const written = await rows();
  expect(written.map((d) => [d.endpoint_id, d.event_id, d.status, d.attempt, d.claimed_at])).toEqual(ids.map((id) => [id, 'evt_h1', 'delivered', 1, null]));
  expect(r.received).toHaveLength(3);
});

it('hands back what it holds on stop, and what it held too long to send before the claim lapses: unsent, due, not counted', async () => {
  const r = await receiver('hang');
  const id = await endpointFor(r.url);
  const w = await attachedWorker({ perEndpoint: 1, timeoutMs: 5_000 });
  const events = [event('evt_h2'), event('evt_h3'), event('evt_h4')];
  await t.services.dataSource.transaction((manager) => t.services.events.outbox(manager, events));
  t.services.events.handoff.committed(events);
  await r.receivedAtLeast(1);

  // the two held behind the hanging one would still be under way when their claim lapses (15 s): handed back
  clock += 10_000;
  w.wake();
  await settle();
  const back = await rows();
  expect(back.map((d) => [d.endpoint_id, d.event_id, d.status, d.attempt, d.claimed_at === null])).toEqual([
    [id, 'evt_h2', 'pending', 1, false],
    [id, 'evt_h3', 'pending', 0, true],
    [id, 'evt_h4', 'pending', 0, true],
  ]);

  const more = [event('evt_h5')];
  await t.services.dataSource.transaction((manager) => t.services.events.outbox(manager, more));
  t.services.events.handoff.committed(more);
  await w.stop(0);
  expect(r.received).toHaveLength(1);
  expect((await rows()).every((d) => d.status === 'pending' && d.attempt === 0 && d.claimed_at === null)).toBe(true);
});

it('leaves the rows it was handed to itself: another worker’s claims (another instance) skip them, and each is sent once', async () => {
  const r = await receiver(200);
  await endpointFor(r.url);
  await endpointFor(r.url);
  await attachedWorker();
  const other = new DeliveryWorker(t.services.dataSource, { urlPolicy: { allowPrivate: true }, secretsFor: (endpoint, at) => t.services.webhooks.signingSecrets(endpoint, at), embedded: false, logger: t.services.logger });
  const events = [event('evt_h6')];
  await t.services.dataSource.transaction((manager) => t.services.events.outbox(manager, events));
  await other.runDue();
  expect(r.received).toHaveLength(0);
  t.services.events.handoff.committed(events);
  await r.receivedAtLeast(2);
  await other.runDue();
  await settle();
  expect(r.received.map((d) => d.headers['webhook-id'])).toEqual(['evt_h6', 'evt_h6']);
  expect((await rows()).map((d) => [d.status, d.attempt])).toEqual([
    ['delivered', 1],
    ['delivered', 1],
  ]);
});
