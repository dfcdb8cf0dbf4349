import type { ServiceEvent } from '../../src/events/event';
import { FakeBillsApi, recordLordsReport } from '../support/fixture-bills-api';
import { startTestApp, type TestApp } from '../support/test-app';

// The app the tests build runs the lifecycle `npm start` runs (src/jobs/lifecycle.ts): a first
// start ingests from the Bills API and trains a model, scheduled syncs follow the API, and a change
// they bring reaches subscribers through the events refresh.

const TODAY = '2026-10-14';
const BILL = 4065;

let api: FakeBillsApi;
let app: TestApp;

beforeAll(async () => {
  api = new FakeBillsApi();
  await api.start();
  app = await startTestApp({ live: { billsApiUrl: api.baseUrl, membersApiUrl: api.membersApiUrl, serviceDate: TODAY, syncIntervalSeconds: 1 } });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await api?.stop();
});

const logged = (msg: string) => app.logLines.map((line) => JSON.parse(line) as { msg: string }).filter((line) => line.msg === msg);

it('ingests from the Bills API at a first start, serves a model it trained, and says the data is live', async () => {
  expect(logged('ingest finished').length).toBeGreaterThanOrEqual(1);
  expect(app.services.readiness.isReady()).toBe(true);
  expect(app.services.models.activeVersion()).not.toBeNull();
  expect((await app.http().get('/readyz')).body).toMatchObject({ status: 'ready', today: TODAY, data: { source: 'live', stale: false } });
});

it('picks up a stage that appears in the Bills API by a scheduled sync, and the refresh emits it to subscribers', async () => {
  const subscription = app.services.events.bus.subscribe();
  const reported = (async () => {
    for await (const batch of { [Symbol.asyncIterator]: () => subscription }) {
      const event = batch.find((e: ServiceEvent) => e.type === 'bill.stage_changed' && e.data.bill_id === BILL && e.data.stage === 'report');
      if (event) return event;
    }
    return null;
  })();
  const syncsBefore = logged('ingest finished').length;

  recordLordsReport(api, BILL, '2026-10-13', `${TODAY}T13:00:00.1234567`);
  const event = await reported;
  await subscription.return?.();

  expect(event?.data).toMatchObject({ bill_id: BILL, stage: 'report', house: 'Lords', date: '2026-10-13' });
  // nobody asked for a sync: the schedule ran it
  expect(logged('ingest finished').length).toBeGreaterThan(syncsBefore);
}, 60_000);

it('stops its schedule when the app closes: nothing runs after, not even a try that fails on the closed database', async () => {
  await app.close();
  const logLines = app.logLines.length;
  const requests = api.requestsTo('/Bills').length;
  // the schedule's next try is within an interval (one second)
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect(app.logLines.slice(logLines)).toEqual([]);
  expect(api.requestsTo('/Bills').length).toBe(requests);
  app = undefined as unknown as TestApp;
}, 30_000);
