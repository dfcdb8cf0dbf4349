import { announceDissolution, removeDissolution } from '../../src/admin/commands/dissolutions';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { FEATURE_NAMES, featureVector } from '../../src/model/serve/features';
import { SittingCalendar } from '../../src/model/serve/sitting-calendar';
import { billAsOf } from '../../src/model/serve/truncate';
import { loadBillFacts, loadSessionFacts, readTrainingSet } from '../../src/services/training-data';
import { makeSnapshot } from '../support/fixtures';
import { openTestDatabase, type TestDatabase } from '../support/test-database';

// Issue 34: a session's announced dissolution reaches the model from the snapshot's endAnnounced
// and from an operator's record alike, stored in session_dissolution; the private members' Fridays
// of each session with it.
let db: TestDatabase;
const snapshot = makeSnapshot([2906, 2909, 2868]);

beforeAll(async () => {
  db = await openTestDatabase();
  await ingest(db.dataSource, new SnapshotSource(snapshot));
}, 120_000);
afterAll(() => db?.close());

const dissolutionOf = async (id: number) => (await loadSessionFacts(db.dataSource)).find((s) => s.id === id)!.dissolution;
const featureOn = async (billId: number, date: string, name: string) => {
  const [facts, sessions] = await Promise.all([loadBillFacts(db.dataSource, [billId]), loadSessionFacts(db.dataSource)]);
  return featureVector(billAsOf(facts.get(billId)!.facts, date, sessions), sessions, new SittingCalendar([]))[FEATURE_NAMES.indexOf(name)];
};

it('stores the snapshot’s dissolutions and gives them to nowcasts and trainings as session facts', async () => {
  expect(await dissolutionOf(29)).toEqual({ announced: '2017-04-18', end: '2017-04-27' });
  expect(await dissolutionOf(30)).toBeNull();
  const training = await readTrainingSet(db.dataSource);
  expect(training.data.sessions.find((s) => s.id === 29)!.dissolution).toEqual({ announced: '2017-04-18', end: '2017-04-27' });
  // the Fridays on which the stored private members' bills of 2021-22 sat
  expect((await loadSessionFacts(db.dataSource)).find((s) => s.id === 36)!.pmbFridays).toContain('2021-09-10');
});

it('reads an operator’s record for the running session from its announcement on, and moves the data’s fingerprint', async () => {
  const before = (await ingest(db.dataSource, new SnapshotSource(snapshot))).dataFingerprint;
  expect(await featureOn(2868, '2021-12-01', 'dissolution_announced')).toBe(0);

  await announceDissolution(db.dataSource, { session: '36', announced: '2021-12-01', end: '2022-01-31' });
  expect(await dissolutionOf(36)).toEqual({ announced: '2021-12-01', end: '2022-01-31' });
  expect(await featureOn(2868, '2021-11-30', 'dissolution_announced')).toBe(0);
  expect(await featureOn(2868, '2021-11-30', 'dissolution_days_left')).toBe(0);
  expect(await featureOn(2868, '2021-12-01', 'dissolution_announced')).toBe(1);
  expect(await featureOn(2868, '2021-12-01', 'dissolution_days_left')).toBeCloseTo(Math.log1p(61) / Math.log1p(800), 10);
  const after = (await ingest(db.dataSource, new SnapshotSource(snapshot))).dataFingerprint;
  expect(after).not.toBe(before);

  await removeDissolution(db.dataSource, { session: '36' });
  expect(await dissolutionOf(36)).toBeNull();
  expect((await ingest(db.dataSource, new SnapshotSource(snapshot))).dataFingerprint).toBe(before);
});
