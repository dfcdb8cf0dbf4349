import { ScheduledSittingEntity } from '../../src/db/entities/scheduled-sitting.entity';
import type { ApiBill, ApiBillSummary, ApiStageSummary } from '../../src/ingest/bills-api/api-types';
import { BillsApiSource } from '../../src/ingest/bills-api/bills-api.source';
import { ingest } from '../../src/ingest/ingest.service';
import { BillService } from '../../src/services/bill.service';
import { fakeApiAndDatabasePerTest } from '../support/fixture-bills-api';

const live = fakeApiAndDatabasePerTest();

const BILL = 5002;
const sync = (today: string) => ingest(live.db.dataSource, new BillsApiSource({ baseUrl: live.api.baseUrl, membersApiUrl: live.api.membersApiUrl, sleep: async () => {}, maxRetries: 1 }), { today });
const rows = () => live.db.dataSource.getRepository(ScheduledSittingEntity).find({ where: { billId: BILL }, order: { id: 'ASC' } });

const stage = (sortOrder: number, [stageId, description, abbreviation]: [number, string, string], date: string): ApiStageSummary => ({
  id: BILL * 10 + sortOrder,
  stageId,
  sessionId: 40,
  description,
  abbreviation,
  house: 'Commons',
  stageSittings: [{ id: BILL * 10 + sortOrder, stageId, billStageId: BILL * 10 + sortOrder, billId: BILL, date: `${date}T00:00:00` }],
  sortOrder,
});

/** The API's record of a Commons bill read a first time, with its second reading set down for `secondReading`, updated at `lastUpdate`. */
function publish(secondReading: string, lastUpdate: string, shortTitle = `Bill ${BILL}`): void {
  const template = live.api.summaries.find((b) => b.billId === 4065)!;
  const stages = [stage(1, [6, '1st reading', '1R'], '2026-09-20'), stage(2, [7, '2nd reading', '2R'], secondReading)];
  const summary: ApiBillSummary = { ...template, billId: BILL, shortTitle, currentHouse: 'Commons', lastUpdate, introducedSessionId: 40, includedSessionIds: [40], currentStage: stages[1]! };
  const at = live.api.summaries.findIndex((b) => b.billId === BILL);
  if (at >= 0) live.api.summaries.splice(at, 1);
  live.api.summaries.push(summary);
  live.api.details.set(BILL, { ...live.api.details.get(4065)!, ...summary } as ApiBill);
  live.api.stages.set(BILL, stages);
}

it('records a sitting set down after the sync’s day with the day first seen, writes nothing for the same date again, and records a move', async () => {
  publish('2026-10-27', '2026-09-21T18:00:00.5');
  const first = await sync('2026-10-01');
  expect(first.sittingsScheduled).toBeGreaterThanOrEqual(1);
  // the first reading (before the day) is history, not a scheduled sitting
  const [announced, ...others] = await rows();
  expect(others).toEqual([]);
  expect(announced).toMatchObject({ billStageId: BILL * 10 + 2, stage: 'second_reading', house: 'Commons', scheduledFor: '2026-10-27', firstSeenDay: '2026-10-01', supersededAt: null });

  // the bill changes (re-read and rewritten) but its date stands: the record is as it was
  publish('2026-10-27', '2026-10-02T10:00:00.5', 'Renamed Bill');
  expect(await sync('2026-10-02')).toMatchObject({ billsChanged: 1, sittingsScheduled: 0 });
  expect(await rows()).toEqual([announced]);

  // the second reading is moved to a later day: the old date is superseded, the new one recorded
  publish('2026-11-03', '2026-10-05T10:00:00.5', 'Renamed Bill');
  expect(await sync('2026-10-05')).toMatchObject({ billsChanged: 1, sittingsScheduled: 1 });
  const [old, moved, ...more] = await rows();
  expect(more).toEqual([]);
  expect(old).toMatchObject({ id: announced!.id, scheduledFor: '2026-10-27', firstSeenDay: '2026-10-01', supersededAt: expect.any(Date) });
  expect(moved).toMatchObject({ stage: 'second_reading', scheduledFor: '2026-11-03', firstSeenDay: '2026-10-05', supersededAt: null });

  // what Bill.scheduledSittings answers: the standing date after the service's today, announced by its first-seen day
  const onDay = (today: string) => new BillService(live.db.dataSource, { today: () => today }).scheduledSittingsOfBills([BILL, 4065]);
  const [scheduled, none] = await onDay('2026-10-06');
  expect(scheduled!.map((s) => [s.stage, s.house, s.scheduledFor, s.firstSeenDay])).toEqual([['second_reading', 'Commons', '2026-11-03', '2026-10-05']]);
  expect(none).toEqual([]);
  // once the day has come it is no longer ahead
  expect(await onDay('2026-11-03')).toEqual([[], []]);
});
