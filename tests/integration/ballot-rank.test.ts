import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { loadBillFacts, loadTrainingData, SessionPeers } from '../../src/services/training-data';
import { makeSnapshot } from '../support/fixtures';
import { openTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * A ballot bill's place in the ballot order (a model feature) read from the database is the one
 * the evaluation reads from the snapshot, whether one bill is loaded (a served nowcast) or all (training).
 */
// 2021-22 ballot bills, presented on 2021-06-16 in the order of the draw; 2898 is a presentation bill
const BALLOT = [2895, 2896, 2897, 2899, 2900, 2901];
let db: TestDatabase;

beforeAll(async () => {
  db = await openTestDatabase();
  await ingest(db.dataSource, new SnapshotSource(makeSnapshot([...BALLOT, 2898, 2868])));
}, 60_000);

afterAll(async () => {
  await db?.close();
});

it('is the rank among the session’s ballot bills presented before it, for one bill or all', async () => {
  const one = await loadBillFacts(db.dataSource, [2900]);
  expect(one.get(2900)!.facts.ballotRank).toBe(5);
  const some = await loadBillFacts(db.dataSource, [2895, 2901, 2898]);
  expect([2895, 2901, 2898].map((id) => some.get(id)!.facts.ballotRank)).toEqual([1, 6, null]);
  const all = await loadTrainingData(db.dataSource);
  const ranks = Object.fromEntries(all.bills.map((b) => [b.facts.billId, b.facts.ballotRank]));
  expect(ranks).toEqual({ 2895: 1, 2896: 2, 2897: 3, 2899: 4, 2900: 5, 2901: 6, 2898: null, 2868: null });
});

it('is the same when the bills are read one at a time and their sessions’ bills are read once', async () => {
  const all = await loadTrainingData(db.dataSource);
  const peers = new SessionPeers();
  for (const { facts } of all.bills) {
    const one = (await loadBillFacts(db.dataSource, [facts.billId], peers)).get(facts.billId)!.facts;
    expect({ bill: facts.billId, ballotRank: one.ballotRank, pmbSession: one.pmbSession }).toEqual({ bill: facts.billId, ballotRank: facts.ballotRank, pmbSession: facts.pmbSession });
  }
  expect([...peers.ballot.keys()]).toEqual([all.bills.find((b) => b.facts.billId === 2900)!.facts.introducedSessionId]);
});
