import { ServiceClock } from '../../src/common/clock';
import { openDatabase } from '../../src/db/database';
import type { ServiceEvent } from '../../src/events/event';
import { BillsApiSource } from '../../src/ingest/bills-api/bills-api.source';
import { ingest } from '../../src/ingest/ingest.service';
import { replay } from '../../src/services/replay';
import type { Services } from '../../src/services/services';
import { loadBillFacts, loadSessionFacts } from '../../src/services/training-data';
import { fakeApiAndDatabasePerTest, serviceInstance, setDownLordsThirdReading } from '../support/fixture-bills-api';
import { usingPostgres } from '../support/test-database';

// Scheduled sittings (issue 22, item 5): a sitting the Bills API dates after today becomes a
// bill.stage_scheduled event when first seen or moved, and the ETA of the bill's next stage; a
// nowcast at a past date uses only what the service had seen by that date.

const live = fakeApiAndDatabasePerTest();
const BILL = 4065;
const TODAY = '2026-10-14';

let clock: ServiceClock;
let services: Services;
/** The service's parts on `dataSource`: an instance of the server. */
const instance = (dataSource: typeof live.db.dataSource, at: ServiceClock) => serviceInstance(dataSource, live.db.kind === 'pglite', at);
beforeEach(async () => {
  clock = new ServiceClock(TODAY);
  services = instance(live.db.dataSource, clock);
  await sync();
  await services.models.train();
});
afterEach(async () => {
  await services.events.close();
  await services.quotas.close();
});

/** What the server does after each sync: ingest on the service's day, then notice the new data. */
async function sync(): Promise<void> {
  await ingest(live.db.dataSource, new BillsApiSource({ baseUrl: live.api.baseUrl, membersApiUrl: live.api.membersApiUrl, sleep: async () => {}, maxRetries: 1 }), { today: clock.today() });
  await services.predictions.checkDataState();
}

/** The Bills API sets the bill's Lords third reading down for `date` (or moves it there). */
const parliamentSchedulesThirdReading = (date: string, updatedAt: string) => setDownLordsThirdReading(live.api, BILL, date, updatedAt);

const scheduledEvents = (events: readonly ServiceEvent[]) => events.filter((e) => e.type === 'bill.stage_scheduled');

/** The model's own nowcast of the bill at `date`, with no scheduled sitting applied. */
async function modelNowcast(date: string) {
  const [facts, sessions] = await Promise.all([loadBillFacts(live.db.dataSource, [BILL]), loadSessionFacts(live.db.dataSource)]);
  return services.models.predictor().predictor.nowcast(facts.get(BILL)!.facts, date, sessions);
}

it('emits bill.stage_scheduled when a sitting is first seen and again when its date moves, never twice for one sighting', async () => {
  await services.events.refresh.run(TODAY);
  parliamentSchedulesThirdReading('2026-10-21', `${TODAY}T09:00:00.5`);
  await sync();
  const first = await services.events.refresh.run(TODAY);
  expect(scheduledEvents(first.events).map((e) => e.data)).toEqual([
    { bill_id: BILL, title: expect.any(String), stage: 'third_reading', house: 'Lords', scheduled_for: '2026-10-21', first_seen: TODAY, previously_scheduled_for: null, stage_record_id: 99_100, sitting_id: expect.any(Number) },
  ]);

  // new data elsewhere runs the refresh again on the same day: the sighting is not announced again
  live.api.summaries.find((b) => b.billId === 2806)!.lastUpdate = `${TODAY}T10:00:00.5`;
  live.api.details.get(2806)!.shortTitle = 'Renamed Bill';
  live.api.details.get(2806)!.lastUpdate = `${TODAY}T10:00:00.5`;
  await sync();
  const again = await services.events.refresh.run(TODAY);
  expect(again.ran).toBe(true);
  expect(scheduledEvents(again.events)).toEqual([]);

  // the next day the date moves: one more event, carrying the date it replaced
  clock.moveTo('2026-10-15');
  parliamentSchedulesThirdReading('2026-10-28', '2026-10-15T09:00:00.5');
  await sync();
  const moved = await services.events.refresh.run('2026-10-15');
  expect(scheduledEvents(moved.events).map((e) => e.data)).toEqual([expect.objectContaining({ stage: 'third_reading', scheduled_for: '2026-10-28', first_seen: '2026-10-15', previously_scheduled_for: '2026-10-21' })]);
  const logged = (await live.db.dataSource.query(`SELECT data->>'scheduled_for' AS date FROM service_event WHERE type = 'bill.stage_scheduled' ORDER BY recorded_at`)) as { date: string }[];
  expect(logged.map((r) => r.date)).toEqual(['2026-10-21', '2026-10-28']);

  // `admin replay` of those days announces each sighting on the day it was first seen, as the refresh did
  const replayed = await replay(services.events.refresh, clock, TODAY, '2026-10-15');
  expect(replayed.events_by_type['bill.stage_scheduled']).toBe(2);
});

it('makes the days to a scheduled next stage the ETA, in today’s cached nowcast and the imminent list, and at a past date only what was seen by then', async () => {
  const before = await services.predictions.nowcast(BILL, TODAY);
  expect(before.timelineEtaScheduledFor).toBeNull();

  parliamentSchedulesThirdReading('2026-10-21', `${TODAY}T09:00:00.5`);
  await sync();
  const scheduled = await services.predictions.nowcast(BILL, TODAY);
  expect(scheduled).toMatchObject({ status: 'live', timelineEtaDays: 7, timelineEtaScheduledFor: '2026-10-21' });
  const imminent = (await services.predictions.imminent(7, 0)).find((b) => b.prediction.billId === BILL);
  expect(imminent).toMatchObject({ timelineEtaDays: 7, predictedDate: '2026-10-21' });

  // moved a week later, seen on the 16th
  clock.moveTo('2026-10-16');
  parliamentSchedulesThirdReading('2026-10-28', '2026-10-16T09:00:00.5');
  await sync();
  expect(await services.predictions.nowcast(BILL, '2026-10-16')).toMatchObject({ timelineEtaDays: 12, timelineEtaScheduledFor: '2026-10-28' });
  // the nowcast rule: on the 15th the date stood at the 21st, whatever was learned later
  expect(await services.predictions.nowcast(BILL, '2026-10-15')).toMatchObject({ timelineEtaDays: 6, timelineEtaScheduledFor: '2026-10-21' });
  // and before the sighting the service knew of no date: the model's own ETA
  const unseen = await services.predictions.nowcast(BILL, '2026-10-13');
  expect(unseen.timelineEtaScheduledFor).toBeNull();
  expect(unseen.timelineEtaDays).toBe((await modelNowcast('2026-10-13')).timelineEtaDays);
  // the bill's chart follows the same rule at each of its dates
  const chart = await services.predictions.nowcastsOfBill(BILL, ['2026-10-13', '2026-10-15', '2026-10-16']);
  expect(chart.map((n) => n.timelineEtaScheduledFor)).toEqual([null, '2026-10-21', '2026-10-28']);
});

(usingPostgres() ? it : it.skip)('announces a sighting once between two instances refreshing at the same time (PostgreSQL)', async () => {
  const other = await openDatabase({ databaseUrl: live.db.url, dataDir: null, poolSize: 3 });
  const second = instance(other.dataSource, new ServiceClock(TODAY));
  try {
    await second.models.start({ trainIfMissing: false });
    await services.events.refresh.run(TODAY);
    parliamentSchedulesThirdReading('2026-10-21', `${TODAY}T09:00:00.5`);
    await sync();
    await second.predictions.checkDataState();
    const reports = await Promise.all([services.events.refresh.run(TODAY), second.events.refresh.run(TODAY)]);
    expect(reports.flatMap((r) => scheduledEvents(r.events))).toHaveLength(1);
    const logged = (await live.db.dataSource.query(`SELECT count(*)::int AS n FROM service_event WHERE type = 'bill.stage_scheduled'`)) as { n: number }[];
    expect(logged[0]!.n).toBe(1);
  } finally {
    await second.events.close();
    await second.quotas.close();
    await other.close();
  }
});
