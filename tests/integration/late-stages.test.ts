import { ServiceClock } from '../../src/common/clock';
import { openDatabase } from '../../src/db/database';
import type { ServiceEvent } from '../../src/events/event';
import { BillsApiSource } from '../../src/ingest/bills-api/bills-api.source';
import { ingest } from '../../src/ingest/ingest.service';
import { replay } from '../../src/services/replay';
import { addDays } from '../../src/common/dates';
import type { Services } from '../../src/services/services';
import { fakeApiAndDatabasePerTest, recordRoyalAssent, serviceInstance, setDownLordsThirdReading } from '../support/fixture-bills-api';
import { usingPostgres } from '../support/test-database';

// A stage the Bills API records late (issue 22): the API often shows a sitting a day or more after
// it happened, after the refresh of its day ran. The refresh that follows the sync which first
// shows it still reports it, once, with its real sitting date.

let clock: ServiceClock;
let services: Services;
// registered before the database's hooks, so it runs before the database closes: closing the quotas writes their counts
afterEach(async () => {
  await services.events.close();
  await services.quotas.close();
});
const live = fakeApiAndDatabasePerTest();
const BILL = 4065;

const instance = (dataSource: typeof live.db.dataSource, at: ServiceClock) => serviceInstance(dataSource, live.db.kind === 'pglite', at);
/** The service's first start on `day` (a first sync, a model, the day's refresh), then the next day's refresh. */
async function startFollowing(day = '2026-10-14'): Promise<void> {
  clock = new ServiceClock(day);
  services = instance(live.db.dataSource, clock);
  await sync();
  await services.models.train();
  await services.events.refresh.run(day);
  await nextDay(addDays(day, 1));
}

/** What the server does after each sync: ingest on the service's day, then notice the new data. */
async function sync(): Promise<void> {
  await ingest(live.db.dataSource, new BillsApiSource({ baseUrl: live.api.baseUrl, membersApiUrl: live.api.membersApiUrl, sleep: async () => {}, maxRetries: 1 }), { today: clock.today() });
  await services.predictions.checkDataState();
}

/** The service's day moves on and its refresh runs, before the day's sync. */
async function nextDay(day: string) {
  clock.moveTo(day);
  return services.events.refresh.run(day);
}

/** The Bills API shows the bill's Lords third reading as having sat on `date`; the bill's lastUpdate moves to `updatedAt`. */
const parliamentRecordsThirdReading = (date: string, updatedAt: string) => setDownLordsThirdReading(live.api, BILL, date, updatedAt);

const stageChanges = (events: readonly ServiceEvent[]) => events.filter((e) => e.type === 'bill.stage_changed').map((e) => e.data);

it('does not report the stages of the first sync, which came before the service followed anything', async () => {
  // a first start within 30 days of the bill's Lords committee stage (2 and 8 September): not news then, nor the next day
  await startFollowing('2026-09-20');
  const logged = (await live.db.dataSource.query(`SELECT count(*)::int AS n FROM service_event WHERE type = 'bill.stage_changed'`)) as { n: number }[];
  expect(logged[0]!.n).toBe(0);
});

describe('following the API from 14 October', () => {
  beforeEach(() => startFollowing());

  it('reports a stage that sat before the last refresh but first appears in a later sync, once, with its sitting date', async () => {
    // the third reading sat on the 15th, after whose refresh; the API shows it on the 16th
    await nextDay('2026-10-16');
    parliamentRecordsThirdReading('2026-10-15', '2026-10-16T09:00:00.5');
    await sync();
    const late = await services.events.refresh.run('2026-10-16');
    expect(stageChanges(late.events)).toEqual([{ bill_id: BILL, stage_record_id: 99_100, stage: 'third_reading', house: 'Lords', date: '2026-10-15' }]);
    const event = late.events.find((e) => e.type === 'bill.stage_changed')!;
    expect(event.timestamp.startsWith('2026-10-16')).toBe(true);

    // new data elsewhere runs the refresh again the same day, and the next day comes: not again
    live.api.details.get(2806)!.shortTitle = 'Renamed Bill';
    for (const record of [live.api.summaries.find((b) => b.billId === 2806)!, live.api.details.get(2806)!]) record.lastUpdate = '2026-10-16T10:00:00.5';
    await sync();
    const again = await services.events.refresh.run('2026-10-16');
    expect(again.ran).toBe(true);
    expect(stageChanges(again.events)).toEqual([]);
    expect(stageChanges((await nextDay('2026-10-17')).events)).toEqual([]);
    const logged = (await live.db.dataSource.query(`SELECT count(*)::int AS n FROM service_event WHERE type = 'bill.stage_changed' AND (data->>'stage_record_id')::int = 99100`)) as { n: number }[];
    expect(logged[0]!.n).toBe(1);
  });

  it('reports a stage recorded late the same day its sync comes, when the day’s refresh ran before the sync', async () => {
    parliamentRecordsThirdReading('2026-10-13', '2026-10-15T09:00:00.5');
    await sync();
    expect(stageChanges((await services.events.refresh.run('2026-10-15')).events)).toEqual([expect.objectContaining({ stage_record_id: 99_100, date: '2026-10-13' })]);
  });

  it('does not report a stage whose sitting is more than 30 days before the day, however late it appears (a backfill of old history)', async () => {
    await nextDay('2026-10-16');
    parliamentRecordsThirdReading('2026-09-15', '2026-10-16T09:00:00.5');
    await sync();
    expect(stageChanges((await services.events.refresh.run('2026-10-16')).events)).toEqual([]);
  });

  it('fires a Pro threshold on a Royal Assent recorded late, in the refresh after the sync', async () => {
    const account = await services.accounts.create('pro@example.com', 'pro');
    const watchlist = await services.watchlists.create(account.id, { name: 'followed', billIds: [BILL] } as never);
    await services.alerts.create(account.id, 'pro', { watchlistId: watchlist.id, alertType: 'probability', thresholdValue: 0.95 });
    expect((await services.events.refresh.run('2026-10-15')).events.filter((e) => e.type === 'prediction.crossed_threshold')).toEqual([]);

    await nextDay('2026-10-16');
    recordRoyalAssent(live.api, BILL, '2026-10-14', '2026-10-16T09:00:00.5');
    await sync();
    const report = await services.events.refresh.run('2026-10-16');
    expect(stageChanges(report.events)).toEqual([expect.objectContaining({ stage: 'royal_assent', date: '2026-10-14' })]);
    expect(report.events.filter((e) => e.type === 'prediction.crossed_threshold').map((e) => e.data)).toEqual([expect.objectContaining({ bill_id: BILL, alert_type: 'probability' })]);
  });

  it('the hourly Pro alert check sees a Royal Assent recorded late, before any refresh', async () => {
    const account = await services.accounts.create('hourly@example.com', 'pro');
    const watchlist = await services.watchlists.create(account.id, { name: 'followed', billIds: [BILL] } as never);
    await services.alerts.create(account.id, 'pro', { watchlistId: watchlist.id, alertType: 'probability', thresholdValue: 0.95 });
    await nextDay('2026-10-16');
    recordRoyalAssent(live.api, BILL, '2026-10-14', '2026-10-16T09:00:00.5');
    await sync();
    const check = await services.alertEvaluation.check(account.id, 'pro', 'scheduled', services.quotas.forAccount(account.id, 'pro'));
    expect(check.triggered.map((t) => [t.billId, t.alertType, t.valueSeen])).toEqual([[BILL, 'probability', 1]]);
  });

  it('leaves `admin replay` a replay of history: the late stage on the day it sat, once', async () => {
    await nextDay('2026-10-16');
    parliamentRecordsThirdReading('2026-10-15', '2026-10-16T09:00:00.5');
    await sync();
    await services.events.refresh.run('2026-10-16');

    const replayed: ServiceEvent[] = [];
    const subscription = services.events.bus.subscribe();
    const reading = (async () => {
      for await (const batch of { [Symbol.asyncIterator]: () => subscription }) replayed.push(...batch);
    })();
    await replay(services.events.refresh, clock, '2026-10-14', '2026-10-17');
    await new Promise((resolve) => setImmediate(resolve));
    await subscription.return?.();
    await reading;
    const changes = replayed.filter((e) => e.type === 'bill.stage_changed');
    expect(changes.map((e) => [e.timestamp.slice(0, 10), e.data.stage_record_id, e.data.date])).toEqual([['2026-10-15', 99_100, '2026-10-15']]);
  });

  (usingPostgres() ? it : it.skip)('reports a late stage once between two instances refreshing at the same time (PostgreSQL)', async () => {
    const other = await openDatabase({ databaseUrl: live.db.url, dataDir: null, poolSize: 3 });
    const second = instance(other.dataSource, new ServiceClock('2026-10-16'));
    try {
      await second.models.start({ trainIfMissing: false });
      await nextDay('2026-10-16');
      parliamentRecordsThirdReading('2026-10-15', '2026-10-16T09:00:00.5');
      await sync();
      await second.predictions.checkDataState();
      const reports = await Promise.all([services.events.refresh.run('2026-10-16'), second.events.refresh.run('2026-10-16')]);
      expect(reports.flatMap((r) => stageChanges(r.events))).toHaveLength(1);
    } finally {
      await second.events.close();
      await second.quotas.close();
      await other.close();
    }
  });
});
