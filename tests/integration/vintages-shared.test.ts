import { Writable } from 'node:stream';
import { ServiceClock } from '../../src/common/clock';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { createLogger } from '../../src/logger';
import { Readiness } from '../../src/health/readiness';
import { trainInWorker } from '../../src/services/train-in-worker';
import { ModelService, type Trainer } from '../../src/services/model.service';
import { makeSnapshot, SAMPLE_BILL_IDS } from '../support/fixtures';
import { TEST_TRAINING } from '../support/test-app';
import { openTestDatabase, type TestDatabase, usingPostgres } from '../support/test-database';

/**
 * Several instances on one PostgreSQL start together and each trains the vintages missing: a
 * session's vintage is trained by one of them, stored once.
 */
const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }) as never);
// slow enough that the two instances' trainings overlap, as real ones (minutes each) do
const slowTrainer: Trainer = async (...args) => {
  const result = await trainInWorker(...args);
  await new Promise((resolve) => setTimeout(resolve, 500));
  return result;
};

let db: TestDatabase;

(usingPostgres() ? describe : describe.skip)('vintages trained by several instances on one PostgreSQL', () => {
  beforeAll(async () => {
    db = await openTestDatabase();
    await ingest(db.dataSource, new SnapshotSource(makeSnapshot(SAMPLE_BILL_IDS)));
  });

  afterAll(async () => {
    await db?.close();
  });

  it('stores each session vintage once, trained by one instance while the other moves on', async () => {
    const instance = () => {
      const clock = new ServiceClock(undefined);
      clock.setDataAsOf('2021-12-31');
      return new ModelService(db.dataSource, new Readiness(), clock, logger, TEST_TRAINING, slowTrainer, true);
    };
    const [first, second] = await Promise.all([instance().trainVintages(), instance().trainVintages()]);
    const rows = (await db.dataSource.query(`SELECT training_cutoff::text AS cutoff, count(*)::int AS n FROM model_version WHERE metrics -> 'vintage' IS NOT NULL GROUP BY 1 ORDER BY 1`)) as { cutoff: string; n: number }[];
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    expect(first.trained.length + second.trained.length).toBe(rows.length);
    // each instance either trained a session's vintage, found it stored, or left it to the other
    expect(first.trained.length + first.already + first.elsewhere).toBe(rows.length);
    expect(first.elsewhere + second.elsewhere).toBeGreaterThanOrEqual(1);
  });
});
