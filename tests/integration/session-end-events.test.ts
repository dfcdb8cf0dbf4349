import type { BillSource } from '../../src/ingest/bill-source';
import { ingest } from '../../src/ingest/ingest.service';
import { type EventsFixture, startEventsFixture } from '../support/events-fixture';

// The fixture's bills are of session 2021-22 (36), still running in its snapshot. Months later a
// sync sees the next session open: 36's end is inferred, back in December, before the last refresh.
let f: EventsFixture;
beforeAll(async () => {
  f = await startEventsFixture();
}, 120_000);
afterAll(() => f?.close());

/** A live sync that reads no bill but learns that session 37 opened on 10 May 2022. */
const nextSessionOpens: BillSource = {
  name: 'bills-api:test',
  asOf: async () => null,
  sessions: async () => [{ sessionId: 37, name: '2022-23', startDate: '2022-05-10', endDate: null, firstObservedSittingDate: '2022-05-10', lastObservedSittingDate: '2022-05-10' }],
  bills: async function* () {},
};

it('a bill that fell with a session whose end was learned late still gets its last snapshot and events', async () => {
  const pending = ((await f.db.dataSource.query(`SELECT id FROM bill WHERE outcome = 'pending' ORDER BY id`)) as { id: number }[]).map((b) => b.id);
  expect(pending.length).toBeGreaterThan(0);
  for (const day of ['2022-01-05', '2022-01-06']) {
    f.clock.moveTo(day);
    await f.services.events.refresh.run(day);
  }

  const report = await ingest(f.db.dataSource, nextSessionOpens);
  expect(report.sessionsEndInferred).toEqual([expect.objectContaining({ sessionId: 36, nextSessionId: 37 })]);
  const [{ end }] = (await f.db.dataSource.query(`SELECT end_date::text AS end FROM parliamentary_session WHERE id = 36`)) as { end: string }[];
  expect(end < '2022-01-06').toBe(true);

  f.clock.moveTo('2022-05-11');
  const refresh = await f.services.events.refresh.run('2022-05-11');
  const snapshots = (await f.db.dataSource.query(`SELECT bill_id, royal_assent FROM prediction_snapshot WHERE reference_date = '2022-05-11' ORDER BY bill_id`)) as { bill_id: number; royal_assent: number }[];
  expect(snapshots.map((s) => s.bill_id)).toEqual(pending);
  expect(snapshots.every((s) => s.royal_assent === 0)).toBe(true);
  expect(refresh.events.filter((e) => e.type === 'prediction.updated').map((e) => e.data.bill_id)).not.toEqual([]);
});
