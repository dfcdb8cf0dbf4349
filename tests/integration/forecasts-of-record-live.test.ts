import { ServiceClock } from '../../src/common/clock';
import { BillsApiSource } from '../../src/ingest/bills-api/bills-api.source';
import { ingest } from '../../src/ingest/ingest.service';
import type { Services } from '../../src/services/services';
import { forecastRows, recordForecasts } from '../../src/services/forecasts-of-record';
import { OUTPUT_WORDS } from '../../src/vocabulary';
import { storedForecasts } from '../support/forecast-rows';
import { fakeApiAndDatabasePerTest, serviceInstance, setDownLordsThirdReading } from '../support/fixture-bills-api';

// Forecasts of record (issue 35, item 1): each day's refresh records the nowcasts it published,
// every output of each live bill, with the model that made them; a later sync, retrain or
// promotion adds forecasts of its own and never changes one recorded.

const live = fakeApiAndDatabasePerTest();
const BILL = 4065;
const TODAY = '2026-10-14';

let services: Services;
let clock: ServiceClock;
beforeEach(async () => {
  clock = new ServiceClock(TODAY);
  services = serviceInstance(live.db.dataSource, live.db.kind === 'pglite', clock);
  await sync();
  await services.models.train();
});
afterEach(async () => {
  await services.events.close();
  await services.quotas.close();
});

async function sync(): Promise<void> {
  await ingest(live.db.dataSource, new BillsApiSource({ baseUrl: live.api.baseUrl, membersApiUrl: live.api.membersApiUrl, sleep: async () => {}, maxRetries: 1 }), { today: TODAY });
  await services.predictions.checkDataState();
}

const record = () => storedForecasts(live.db.dataSource);

it('records every output of each live bill as the refresh published it, and a later sync and a retrain add forecasts without changing one', async () => {
  await services.events.refresh.run(TODAY);
  const first = await record();
  const served = await services.predictions.nowcast(BILL, TODAY);
  expect(served.status).toBe('live');
  const ofBill = first.filter((r) => r.bill_id === BILL);
  expect(ofBill.map((r) => r.output).sort()).toEqual([...OUTPUT_WORDS].sort());
  for (const r of ofBill) {
    expect(r).toMatchObject({ forecast_date: TODAY, source: 'live', model_version: served.model.version, trained_through: served.model.trainedThrough });
    expect(r.value).toBe(r.output === 'timeline_eta' ? served.timelineEtaDays : served.probabilities[r.output as keyof typeof served.probabilities]);
    expect(r.table_value).toBe(served.table![r.output as keyof NonNullable<typeof served.table>]);
  }
  // the refresh of the same day, data and model again records nothing new; the same forecasts recorded again are kept once
  await services.events.refresh.run(TODAY);
  expect(await record()).toEqual(first);
  await live.db.dataSource.transaction((manager) => recordForecasts(manager, forecastRows([served], 'live')));
  expect(await record()).toEqual(first);

  // a sync that moves the bill: its new nowcast is recorded beside the old one, which stays
  setDownLordsThirdReading(live.api, BILL, '2026-10-21', `${TODAY}T09:00:00.5`);
  await sync();
  await services.events.refresh.run(TODAY);
  const afterSync = await record();
  expect(afterSync.slice(0, first.length)).toEqual(first);
  const moved = afterSync.slice(first.length);
  expect(moved.some((r) => r.bill_id === BILL && r.output === 'timeline_eta' && r.value === 7)).toBe(true);

  // a retrain that serves: the new version's forecasts are added, the old ones kept as they were
  const retrained = await services.models.train();
  await services.events.refresh.run(TODAY);
  const afterRetrain = await record();
  expect(afterRetrain.slice(0, afterSync.length)).toEqual(afterSync);
  expect(afterRetrain.slice(afterSync.length).every((r) => r.model_version === retrained.id)).toBe(true);
  expect(afterRetrain.length).toBeGreaterThan(afterSync.length);
});

it('keeps no forecast of a settled bill, nor one from a model that had seen the day’s future', async () => {
  await services.events.refresh.run(TODAY);
  const rows = await record();
  expect(rows.length).toBeGreaterThan(0);
  const settled = (await live.db.dataSource.query(`SELECT id FROM bill WHERE outcome <> 'pending'`)) as { id: number }[];
  expect(rows.filter((r) => settled.some((s) => s.id === r.bill_id))).toEqual([]);
  for (const r of rows) expect(r.trained_through <= r.forecast_date).toBe(true);
});

it('records no live forecast for a day a replay moved to: it was never published', async () => {
  await services.events.refresh.run(TODAY);
  const before = await record();
  clock.moveTo('2026-10-20');
  await services.events.refresh.run('2026-10-20');
  expect(await record()).toEqual(before);
});
