import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ServiceClock } from '../../src/common/clock';
import { readJsonPages } from '../../src/db/rows-in-pages';
import { Readiness } from '../../src/health/readiness';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { createLogger } from '../../src/logger';
import type { TrainingData } from '../../src/model/train/train';
import { stageHistoryCompleteUntil } from '../../src/model/serve/bill-facts';
import { ModelService, type Trainer } from '../../src/services/model.service';
import { trainInWorker } from '../../src/services/train-in-worker';
import { loadBillFacts, loadSessionFacts, readTrainingSet } from '../../src/services/training-data';
import { isTrainingPages, trainingDataFromPages, type TrainingInput } from '../../src/services/training-pages';
import { makeSnapshot, REAL_SNAPSHOT_DIR } from '../support/fixtures';
import { TEST_TRAINING } from '../support/test-app';
import { openTestDatabase, type TestDatabase } from '../support/test-database';

// A training reads the stored data in pages and hands them to its worker thread unparsed (issue
// 32): on the embedded database one read of every bill, stage and division, and the joining of
// them into facts, held the event loop (and every request) for a second or more. The pages must
// make the same training data, in the same order, as that read did: the same models.

/** Real bills of sessions 23 (2009-10: ballot bills, divisions, over 500 stage records between them) and 34; with 22 before them, two vintages. */
const SESSIONS = [22, 23, 34];
const BILL_IDS = readFileSync(path.join(REAL_SNAPSHOT_DIR, 'bills.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { billId: number; introducedSessionId: number })
  .filter((b) => b.introducedSessionId === 23 || b.introducedSessionId === 34)
  .map((b) => b.billId);

const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }) as never);
let db: TestDatabase;

/** The training data as the read of every row at once made it: bills and divisions in the order a plain scan gives. */
async function readAtOnce(): Promise<TrainingData> {
  const [facts, sessions] = await Promise.all([loadBillFacts(db.dataSource), loadSessionFacts(db.dataSource)]);
  const bills = [...facts.values()].map(({ facts: f, bill }) => ({
    facts: f,
    outcome: { outcome: bill.outcome, royalAssentDate: bill.royalAssentDate, finalSessionId: Math.max(bill.introducedSessionId, ...bill.sessionIds), stageHistoryCompleteUntil: stageHistoryCompleteUntil(bill.stageHistory, bill.missingStageCount, f.stages, bill.introducedDate) },
  }));
  return { bills, sessions };
}

beforeAll(async () => {
  db = await openTestDatabase();
  const dir = makeSnapshot(BILL_IDS);
  const sessions = JSON.parse(readFileSync(path.join(dir, 'sessions.json'), 'utf8')) as { sessionId: number }[];
  writeFileSync(path.join(dir, 'sessions.json'), JSON.stringify(sessions.filter((s) => SESSIONS.includes(s.sessionId))));
  await ingest(db.dataSource, new SnapshotSource(dir));
  // rewritten rows move to the end of their table, as a sync's updates move them: its order is no longer the ids'
  await db.dataSource.query(`UPDATE bill SET title = title WHERE id % 3 = 0`);
  await db.dataSource.query(`UPDATE division SET title = title WHERE id % 2 = 0`);
}, 120_000);

afterAll(async () => {
  await db?.close();
});

it('reads a table as pages of JSON text, each of at most the page size, every row once in id order', async () => {
  const { pages, rows } = await db.dataSource.transaction('REPEATABLE READ', (manager) => readJsonPages(manager, 'bill', 'id, kind', 7));
  expect(rows).toBe(BILL_IDS.length);
  expect(pages.length).toBe(Math.ceil(BILL_IDS.length / 7));
  for (const page of pages) expect(typeof page).toBe('string');
  const parsed = pages.map((page) => JSON.parse(page) as { id: number }[]);
  expect(parsed.every((page) => page.length <= 7)).toBe(true);
  expect(parsed.flat().map((r) => r.id)).toEqual([...BILL_IDS].sort((a, b) => a - b));
});

it('gives a training the stored data as pages of unparsed JSON, with the sessions and the data fingerprint', async () => {
  const { data, fingerprint } = await readTrainingSet(db.dataSource);
  expect(data.billCount).toBe(BILL_IDS.length);
  expect(data.pages.stages.length).toBeGreaterThan(1);
  for (const page of [...data.pages.bills, ...data.pages.stages, ...data.pages.divisions]) {
    expect(typeof page).toBe('string');
    expect((JSON.parse(page) as unknown[]).length).toBeLessThanOrEqual(500);
  }
  // the stored sessions with their dissolutions; each session's private members' Fridays are counted from the bills where the pages are parsed
  expect(data.sessions).toEqual((await loadSessionFacts(db.dataSource)).map(({ pmbFridays: _fridays, ...s }) => s));
  expect(trainingDataFromPages(data).sessions).toEqual(await loadSessionFacts(db.dataSource));
  const [{ state }] = (await db.dataSource.query(`SELECT data_fingerprint AS state FROM sync_state ORDER BY completed_at DESC LIMIT 1`)) as { state: string }[];
  expect(fingerprint).toBe(state);
});

it('the pages make the same training data, in the same order, as a read of every row at once', async () => {
  const atOnce = await readAtOnce();
  const ids = atOnce.bills.map((b) => b.facts.billId);
  // the fixture's table order differs from the ids': an order by id would not pass
  expect(ids).not.toEqual([...ids].sort((a, b) => a - b));
  expect(atOnce.bills.some((b) => b.facts.divisions.length > 1)).toBe(true);
  expect(atOnce.bills.some((b) => b.facts.ballotRank)).toBe(true);
  expect(trainingDataFromPages((await readTrainingSet(db.dataSource)).data)).toEqual(atOnce);
});

it('a worker trains on the pages the very model it trains on the data read at once', async () => {
  const options = { ...TEST_TRAINING, cutoff: '2018-12-31', ensembleSize: 1 };
  const [fromPages, atOnce] = await Promise.all([trainInWorker((await readTrainingSet(db.dataSource)).data, options), trainInWorker(await readAtOnce(), options)]);
  expect(fromPages.artifact).toEqual(atOnce.artifact);
});

it('a vintage run reads the data once and hands every vintage, as the serving model, the pages', async () => {
  const handed: TrainingInput[] = [];
  const recording: Trainer = (data, ...rest) => {
    handed.push(data);
    return trainInWorker(data, ...rest);
  };
  const clock = new ServiceClock(undefined);
  clock.setDataAsOf('2021-12-31');
  const models = new ModelService(db.dataSource, new Readiness(), clock, logger, TEST_TRAINING, recording);
  await models.train();
  const run = await models.trainVintages();
  expect(run.trained.map((v) => v.session_id)).toEqual([34, 23]);
  expect(handed).toHaveLength(1 + run.trained.length);
  expect(handed.every(isTrainingPages)).toBe(true);
  // one read for the run, handed to each vintage's worker
  expect(new Set(handed.slice(1)).size).toBe(1);
});
