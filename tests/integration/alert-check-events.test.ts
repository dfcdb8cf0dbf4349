import { Writable } from 'node:stream';
import type { ServiceEvent } from '../../src/events/event';
import { HourlyAlertCheck } from '../../src/jobs/hourly-alert-check';
import { createLogger } from '../../src/logger';
import { type EventsFixture, startEventsFixture } from '../support/events-fixture';

/**
 * A threshold that a manual check (POST …/alerts/check) or the hourly Pro check fires first is
 * disarmed, so the refresh never fires it again: those checks emit its
 * prediction.crossed_threshold event themselves, through the event log, the webhook outbox and the bus.
 */
let f: EventsFixture;
const published: ServiceEvent[] = [];
let subscription: AsyncIterableIterator<ServiceEvent[]>;
let reading: Promise<void>;

beforeAll(async () => {
  f = await startEventsFixture({ day: '2021-11-16', webhookUrlPolicy: { allowPrivate: true } });
  await f.services.events.refresh.run('2021-11-16');
  subscription = f.services.events.bus.subscribe();
  reading = (async () => {
    for await (const batch of { [Symbol.asyncIterator]: () => subscription }) published.push(...batch);
  })();
}, 120_000);

afterAll(async () => {
  await subscription?.return?.();
  await reading;
  await f?.close();
});

/** A Pro account watching the Telecommunications (Security) Bill, a threshold that holds today, and a webhook for its events. */
async function proWithThreshold(email: string) {
  const account = await f.services.accounts.create(email, 'pro');
  const watchlist = await f.services.watchlists.create(account.id, { name: 'telecoms', billIds: [2806] } as never);
  const threshold = await f.services.alerts.create(account.id, 'pro', { watchlistId: watchlist.id, alertType: 'probability', thresholdValue: 0.01 });
  const { endpoint } = await f.services.webhooks.create(account.id, 'pro', { url: 'http://127.0.0.1:9/hook', events: ['prediction.crossed_threshold'] });
  return { accountId: account.id, thresholdId: threshold.id, endpointId: endpoint.id };
}

const loggedEvents = async (accountId: number) =>
  (await f.db.dataSource.query(`SELECT id, data FROM service_event WHERE type = 'prediction.crossed_threshold' AND account_id = $1 ORDER BY recorded_at`, [accountId])) as { id: string; data: { trigger_id: number; threshold_id: number; bill_id: number } }[];
const queuedFor = async (endpointId: number) => ((await f.db.dataSource.query('SELECT event_id FROM webhook_delivery WHERE endpoint_id = $1 ORDER BY id', [endpointId])) as { event_id: string }[]).map((r) => r.event_id);
/** The bus hands a published batch over on a later turn of the event loop. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

it('a manual check emits the event of each threshold it fires, once; the next refresh does not fire it again', async () => {
  const pro = await proWithThreshold('manual@example.com');
  const check = await f.services.alertEvaluation.check(pro.accountId, 'pro', 'manual', f.services.quotas.forAccount(pro.accountId, 'pro'));
  expect(check.triggered).toHaveLength(1);

  const [event] = await loggedEvents(pro.accountId);
  expect(event.data).toMatchObject({ trigger_id: check.triggered[0].id, threshold_id: pro.thresholdId, bill_id: 2806 });
  expect(await queuedFor(pro.endpointId)).toEqual([event.id]);
  await settled();
  expect(published.filter((e) => e.accountId === pro.accountId).map((e) => e.id)).toEqual([event.id]);

  f.clock.moveTo('2021-11-17');
  await f.services.events.refresh.run('2021-11-17');
  expect((await loggedEvents(pro.accountId)).map((e) => e.id)).toEqual([event.id]);
  expect(await queuedFor(pro.endpointId)).toEqual([event.id]);
});

it('the hourly Pro check emits the events of the thresholds it fires', async () => {
  const pro = await proWithThreshold('hourly@example.com');
  const logger = createLogger('warn', new Writable({ write: (_c, _e, done) => done() }) as never);
  const hourly = new HourlyAlertCheck(f.db.dataSource, f.services.alertEvaluation, f.services.quotas, logger, { postgres: f.db.kind !== 'pglite', now: () => new Date('2030-01-01T10:00:00Z') });
  const run = await hourly.runDue();
  expect(run.triggered).toBeGreaterThanOrEqual(1);

  const events = await loggedEvents(pro.accountId);
  expect(events).toHaveLength(1);
  expect(await queuedFor(pro.endpointId)).toEqual([events[0].id]);
  await settled();
  expect(published.filter((e) => e.accountId === pro.accountId).map((e) => e.id)).toEqual([events[0].id]);
});
