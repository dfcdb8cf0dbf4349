import { Writable } from 'node:stream';
import { BillEntity } from '../../src/db/entities/bill.entity';
import { ParliamentarySessionEntity } from '../../src/db/entities/parliamentary-session.entity';
import type { ApiBill, ApiBillSummary, ApiStageSummary } from '../../src/ingest/bills-api/api-types';
import { BillsApiSource } from '../../src/ingest/bills-api/bills-api.source';
import { DataFreshness } from '../../src/ingest/freshness';
import { syncBills } from '../../src/ingest/sync';
import { freshnessBody } from '../../src/doors/http/freshness-body';
import { createLogger } from '../../src/logger';
import { fakeApiAndDatabasePerTest } from '../support/fixture-bills-api';

// The fixtures' latest session is 40 (bill 4065, carried over from 39; its last sitting 2026-09-08).
const live = fakeApiAndDatabasePerTest();

const lines: { level: number; msg: string; sessionId?: number }[] = [];
const logger = createLogger('info', new Writable({ write: (chunk, _e, done) => (lines.push(JSON.parse(String(chunk))), done()) }) as never);
const sync = () => syncBills(live.db.dataSource, new BillsApiSource({ baseUrl: live.api.baseUrl, membersApiUrl: live.api.membersApiUrl, sleep: async () => {}, maxRetries: 1 }), logger);

const stage = (billId: number, sessionId: number, sortOrder: number, [stageId, description, abbreviation]: [number, string, string], date: string): ApiStageSummary => ({
  id: billId * 10 + sortOrder,
  stageId,
  sessionId,
  description,
  abbreviation,
  house: 'Commons',
  stageSittings: [{ id: billId * 10 + sortOrder, stageId, billStageId: billId * 10 + sortOrder, billId, date: `${date}T00:00:00` }],
  sortOrder,
});

/** A Commons bill read a first time in `sessionId`, with its second reading set down when given, as the API would list and describe it. */
function addBill(billId: number, sessionId: number, firstReading: string, secondReading?: string): void {
  const template = live.api.summaries.find((b) => b.billId === 4065)!;
  const stages = [stage(billId, sessionId, 1, [6, '1st reading', '1R'], firstReading)];
  if (secondReading) stages.push(stage(billId, sessionId, 2, [7, '2nd reading', '2R'], secondReading));
  const summary: ApiBillSummary = {
    ...template,
    billId,
    shortTitle: `Bill ${billId}`,
    currentHouse: 'Commons',
    lastUpdate: `${firstReading}T18:00:00.1234567`,
    introducedSessionId: sessionId,
    includedSessionIds: [sessionId],
    currentStage: stages.at(-1)!,
  };
  live.api.summaries.push(summary);
  live.api.details.set(billId, { ...live.api.details.get(4065)!, ...summary } as ApiBill);
  live.api.stages.set(billId, stages);
}

/** The API's record of bill 4065 after a carry-over motion took it into `sessionId`. */
function carryOver(billId: number, sessionId: number, lastUpdate: string): void {
  for (const bill of [live.api.summaries.find((b) => b.billId === billId)!, live.api.details.get(billId)!]) {
    bill.includedSessionIds = [...bill.includedSessionIds!, sessionId];
    bill.lastUpdate = lastUpdate;
  }
}

const bill = (id: number) => live.db.dataSource.getRepository(BillEntity).findOneByOrFail({ id });
const session = (id: number) => live.db.dataSource.getRepository(ParliamentarySessionEntity).findOneByOrFail({ id });

it('when bills of a new session appear, records it, infers the end of the one before, and its bills left pending fall', async () => {
  addBill(5001, 40, '2026-07-01');
  // set down for a day that the prorogation took away: it never sat, and must not count as session 40's end
  addBill(5002, 40, '2026-07-15', '2026-10-27');
  await sync();
  const stranded = await bill(5001);
  expect(stranded.outcome).toBe('pending');
  expect(await session(40)).toMatchObject({ endDate: null, endDateInferred: false, learnedAt: expect.any(Date) });

  // Parliament is prorogued; the next session opens with a new bill, and 4065 is carried over into it.
  addBill(5003, 41, '2026-10-20');
  carryOver(4065, 41, '2026-10-21T09:00:00.5');
  lines.length = 0;
  const report = await sync();
  // incremental: only the two bills updated since were read, yet the stored 5001 fell with its session
  expect(report).toMatchObject({ billsSeen: 2, billsFell: 2 });

  const fell = await bill(5001);
  expect(fell.outcome).toBe('fell');
  expect(fell.contentHash).not.toBe(stranded.contentHash);
  expect((await bill(5002)).outcome).toBe('fell');
  expect((await bill(4065)).outcome).toBe('pending');
  expect((await bill(5003)).outcome).toBe('pending');

  expect(await session(41)).toMatchObject({ firstSittingDate: '2026-10-20', endDate: null, endDateInferred: false, learnedAt: expect.any(Date) });
  // the prorogation: session 40's last sitting (4065's Lords committee) before 41's first, not the set-down 2026-10-27
  const ended = await session(40);
  expect(ended).toMatchObject({ endDate: '2026-09-08', endDateInferred: true, endInferredAt: expect.any(Date) });
  expect(ended.endInferredAt!.getTime()).toBeGreaterThan(ended.learnedAt!.getTime());

  const warnings = lines.filter((l) => l.level === 40 && l.sessionId === 40);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]!.msg).toMatch(/session 40 has ended .*inferred/);

  // /readyz's `data` says which sessions' dates are the service's own inference
  const freshness = new DataFreshness('live', 0);
  await freshness.load(live.db.dataSource);
  const inferred = freshnessBody(freshness.report()).sessions_inferred;
  expect(inferred.find((s) => s.session_id === 40)).toEqual({
    session_id: 40,
    name: '40',
    first_sitting_date: '2026-05-20',
    end_date: '2026-09-08',
    learned_at: ended.learnedAt!.toISOString(),
    end_inferred_at: ended.endInferredAt!.toISOString(),
  });
  expect(inferred.find((s) => s.session_id === 41)).toMatchObject({ first_sitting_date: '2026-10-20', end_date: null, end_inferred_at: null });

  // a later sync learns nothing new: nothing is inferred again, nothing falls again
  lines.length = 0;
  expect(await sync()).toMatchObject({ billsFell: 0, sessionsEndInferred: [] });
  expect(lines.filter((l) => l.level === 40)).toEqual([]);
  expect(await session(40)).toEqual(ended);
});

it('fingerprints the same data alike whenever the database learned its sessions (model versions are keyed on it)', async () => {
  const first = await sync();
  // as if this database had learned its sessions and inferred their ends a month earlier
  await live.db.dataSource.query(`UPDATE parliamentary_session SET learned_at = learned_at - interval '30 days', end_inferred_at = end_inferred_at - interval '30 days'`);
  expect(await live.db.dataSource.getRepository(ParliamentarySessionEntity).countBy({ endDateInferred: true })).toBeGreaterThan(0);
  expect((await sync()).dataFingerprint).toBe(first.dataFingerprint);
});
