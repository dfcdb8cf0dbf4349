import type { ServiceEvent } from '../../src/events/event';
import { eventStream } from '../../src/events/event-stream';
import { startTestApp, type TestApp } from '../support/test-app';

// The outbox sink: in the refresh's transaction, one delivery row per event per endpoint that receives it.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ webhookUrlPolicy: { allowPrivate: true } });
});
afterAll(() => t.close());

let n = 0;
async function endpoint(tier: 'pilot' | 'pro', events: string[], options: { allBills?: boolean; watch?: number[] } = {}) {
  const email = `outbox${++n}@example.com`;
  await t.userWithKey(tier, email);
  const accountId = await t.accountIdOf(email);
  if (options.watch) await t.services.watchlists.create(accountId, { name: 'w', billIds: options.watch });
  const { endpoint } = await t.services.webhooks.create(accountId, tier, { url: `http://127.0.0.1:9/${n}`, events, allBills: options.allBills });
  return { accountId, id: endpoint.id };
}
const event = (id: string, type: ServiceEvent['type'], billId: number, accountId?: number): ServiceEvent => ({ id, type, timestamp: '2021-11-26T09:00:00.000Z', data: { bill_id: billId, stage: 'second_reading' }, accountId });
const rows = async () => (await t.services.dataSource.query('SELECT endpoint_id, event_id, body, status, attempt FROM webhook_delivery ORDER BY endpoint_id, event_id')) as { endpoint_id: number; event_id: string; body: string; status: string; attempt: number }[];

it('queues each event for the endpoints that receive it, in the caller’s transaction', async () => {
  const watcher = await endpoint('pilot', ['bill.stage_changed'], { watch: [2900] });
  const everything = await endpoint('pilot', ['bill.stage_changed', 'prediction.updated'], { allBills: true });
  const pro = await endpoint('pro', ['prediction.trending_up'], { watch: [26] });
  const pilotAskedPro = await endpoint('pilot', ['bill.stage_changed'], { watch: [26] });
  const inactive = await endpoint('pilot', ['bill.stage_changed'], { allBills: true });
  await t.services.webhooks.update(inactive.accountId, 'pilot', inactive.id, { active: false });

  // a rolled-back refresh leaves nothing behind
  await expect(
    t.services.dataSource.transaction(async (manager) => {
      await t.services.events.outbox(manager, [event('evt_rolled_back', 'bill.stage_changed', 2900)]);
      throw new Error('refresh failed');
    }),
  ).rejects.toThrow('refresh failed');
  expect(await rows()).toEqual([]);

  const events = [event('evt_a', 'bill.stage_changed', 2900), event('evt_b', 'prediction.updated', 26), event('evt_c', 'prediction.trending_up', 26), event('evt_d', 'bill.stage_changed', 26, pro.accountId)];
  await t.services.dataSource.transaction((manager) => t.services.events.outbox(manager, events));
  // the same events again (a retried refresh) add nothing
  await t.services.dataSource.transaction((manager) => t.services.events.outbox(manager, events));

  const queued = await rows();
  expect(queued.map((r) => [r.endpoint_id, r.event_id])).toEqual([
    [watcher.id, 'evt_a'],
    [everything.id, 'evt_a'],
    [everything.id, 'evt_b'],
    [pro.id, 'evt_c'],
  ]);
  expect(pilotAskedPro).toBeDefined();
  expect(queued.every((r) => r.status === 'pending' && r.attempt === 0)).toBe(true);
  expect(JSON.parse(queued[0].body)).toEqual({ id: 'evt_a', type: 'bill.stage_changed', timestamp: '2021-11-26T09:00:00.000Z', data: { bill_id: 2900, stage: 'second_reading' } });
});

it('stops queuing pro-only events to an endpoint after a downgrade from pro, and queues them again after an upgrade', async () => {
  const email = `outbox${++n}@example.com`;
  await t.userWithKey('pro', email);
  const accountId = await t.accountIdOf(email);
  const { endpoint: kept } = await t.services.webhooks.create(accountId, 'pro', { url: `http://127.0.0.1:9/${n}`, events: ['prediction.trending_up', 'bill.stage_changed'], allBills: true });
  const queuedFor = async () => ((await t.services.dataSource.query('SELECT event_id FROM webhook_delivery WHERE endpoint_id = $1 ORDER BY event_id', [kept.id])) as { event_id: string }[]).map((r) => r.event_id);
  const refresh = (events: ServiceEvent[]) => t.services.dataSource.transaction((manager) => t.services.events.outbox(manager, events));

  await t.services.accounts.setTier(email, 'pilot');
  await refresh([event('evt_down_trend', 'prediction.trending_up', 26), event('evt_down_stage', 'bill.stage_changed', 26)]);
  expect(await queuedFor()).toEqual(['evt_down_stage']);
  await t.services.accounts.setTier(email, 'pro');
  await refresh([event('evt_up_trend', 'prediction.trending_up', 26)]);
  expect(await queuedFor()).toEqual(['evt_down_stage', 'evt_up_trend']);
});

it('queues for an endpoint exactly the events a subscription of its owner with the same types receives', async () => {
  const pilot = await endpoint('pilot', ['bill.stage_changed', 'prediction.updated'], { watch: [2900] });
  const pro = await endpoint('pro', ['prediction.trending_up', 'prediction.crossed_threshold'], { watch: [26] });
  const events = [
    event('evt_s1', 'bill.stage_changed', 2900),
    event('evt_s2', 'prediction.updated', 26),
    event('evt_s3', 'prediction.trending_up', 2900),
    event('evt_s4', 'prediction.trending_up', 26),
    event('evt_s5', 'prediction.crossed_threshold', 26, pro.accountId),
    event('evt_s6', 'prediction.crossed_threshold', 2900, pilot.accountId),
  ];
  // each subscription reads until its own last event, published after the batch under test
  const subscribed = (owner: { accountId: number }, tier: 'pilot' | 'pro', types: string[], last: string) => {
    const stream = eventStream(t.services.events.bus, t.services.dataSource, { accountId: owner.accountId, tier, keyId: null }, { types });
    const received: string[] = [];
    const done = (async () => {
      for await (const e of stream) {
        if (e.id === last) break;
        received.push(e.id);
      }
      return received;
    })();
    return done;
  };
  const pilotReceived = subscribed(pilot, 'pilot', ['bill.stage_changed', 'prediction.updated'], 'evt_s_last_pilot');
  const proReceived = subscribed(pro, 'pro', ['prediction.trending_up', 'prediction.crossed_threshold'], 'evt_s_last_pro');
  await t.services.dataSource.transaction((manager) => t.services.events.outbox(manager, events));
  t.services.events.bus.publish(events);
  t.services.events.bus.publish([event('evt_s_last_pilot', 'bill.stage_changed', 2900), event('evt_s_last_pro', 'prediction.crossed_threshold', 26, pro.accountId)]);

  const queuedFor = async (endpointId: number) => (await rows()).filter((r) => r.endpoint_id === endpointId).map((r) => r.event_id);
  expect(await queuedFor(pilot.id)).toEqual(['evt_s1']);
  expect(await queuedFor(pro.id)).toEqual(['evt_s4', 'evt_s5']);
  expect(await pilotReceived).toEqual(['evt_s1']);
  expect(await proReceived).toEqual(['evt_s4', 'evt_s5']);
});
