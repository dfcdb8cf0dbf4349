import { Writable } from 'node:stream';
import type { ModelArtifact } from '../../src/model/serve/model-artifact';
import { ServiceClock } from '../../src/common/clock';
import { type Database, openDatabase } from '../../src/db/database';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { ScheduledRetrain } from '../../src/jobs/scheduled-retrain';
import { trainInWorker } from '../../src/services/train-in-worker';
import { createLogger } from '../../src/logger';
import { Readiness } from '../../src/health/readiness';
import { ModelService, type Trainer } from '../../src/services/model.service';
import { listModelVersions, promoteModelVersion } from '../../src/services/model-versions';
import { MIN_JUDGED } from '../../src/model/train/challenger';
import { makeSnapshot, SAMPLE_BILL_IDS } from '../support/fixtures';
import { TEST_TRAINING } from '../support/test-app';
import { openTestDatabase, type TestDatabase, usingPostgres } from '../support/test-database';

// Retraining in production (issue 22): a scheduled retrain serves a new version only if it is no
// worse than the serving one on recent resolved outcomes; otherwise it is kept as rejected with its
// figures. `promote` serves another version on every instance; one retrain per period across instances.

/** the sample bills and some of the 2019-21 session: the most recent session ended by 2021-12-31 */
const BILL_IDS = [...SAMPLE_BILL_IDS, 2517, 2520, 2521, 2518, 2519, 2528];
let db: TestDatabase;
/** a second instance: its own connections to the same PostgreSQL database (on PGlite, the one process's) */
let other: Database;
const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }) as never);
/** the challenger's training: as in production, deliberately degraded, or degraded only on today's facts (the version that would serve, not its trial) */
let degrade: 'no' | 'every training' | "today's training" = 'no';

/**
 * A deliberately worse model: certain of Royal Assent and of a next stage within 30 days for every
 * bill (its calibration maps any network output to 0.999), whatever the bill.
 */
function degraded(artifact: ModelArtifact): ModelArtifact {
  const certain = { all: { a: 0, b: Math.log(0.999 / 0.001) }, byKind: {} };
  return { ...artifact, calibration: { ...artifact.calibration, royal_assent: certain, next_stage_30d: certain } };
}
const trainer: Trainer = async (...args) => {
  const result = await trainInWorker(...args);
  const worse = degrade === 'every training' || (degrade === "today's training" && args[1].cutoff === clock.today());
  return worse ? { ...result, artifact: degraded(result.artifact) } : result;
};

/** the service's today, shared by the instances: each retrain comes later than the version it is judged against */
const clock = new ServiceClock(undefined);
clock.setDataAsOf('2021-12-31');

function modelService(database: Database): ModelService {
  return new ModelService(database.dataSource, new Readiness(), clock, logger, TEST_TRAINING, trainer);
}

beforeAll(async () => {
  db = await openTestDatabase();
  await ingest(db.dataSource, new SnapshotSource(makeSnapshot(BILL_IDS)));
  other = usingPostgres() ? await openDatabase({ databaseUrl: db.url, dataDir: null, poolSize: 3 }) : db;
});
afterAll(async () => {
  if (other !== db) await other.close();
  await db.close();
});

const brierOf = (checks: { compared: string; window: string; output: string; challenger: number | null; serving: number | null }[]) =>
  Object.fromEntries(checks.map((c) => [`${c.compared}/${c.window}/${c.output}`, [c.challenger, c.serving]]));

describe('a scheduled retrain (champion/challenger)', () => {
  let models: ModelService;
  let first: number;
  let rejected: number;
  let failedFit: number;
  beforeAll(async () => {
    models = modelService(db);
    // before 2019-21 ended (2021-04-29): its fates are outcomes the first version never saw
    clock.moveTo('2021-03-31');
    first = (await models.train()).id;
  }, 120_000);

  it('keeps a worse version as rejected, with its figures, and goes on serving the current one', async () => {
    degrade = 'every training';
    clock.moveTo('2021-06-30');
    const outcome = await models.retrain();
    degrade = 'no';
    rejected = outcome.version.id;
    expect(outcome.promoted).toBe(false);
    expect(models.activeVersion()!.id).toBe(first);
    // the trial lost every check against the serving version with enough resolved nowcasts to judge
    // (this small data set has MIN_JUDGED for the last session's fates only); the others are recorded
    const fair = outcome.verdict!.checks.filter((c) => c.compared === 'trial_vs_serving');
    expect(fair).toHaveLength(4);
    expect(fair.find((c) => c.window === 'last_session' && c.output === 'royal_assent')!.judged).toBe(true);
    expect(fair.filter((c) => !c.judged).every((c) => c.passed && c.n < MIN_JUDGED)).toBe(true);
    for (const check of fair.filter((c) => c.judged)) {
      expect(check.n).toBeGreaterThanOrEqual(MIN_JUDGED);
      expect(check).toMatchObject({ passed: false });
      expect(check.challenger!).toBeGreaterThan(check.limit!);
    }
    // stored as rejected and never picked by an instance
    expect(await models.followPromotions()).toBe(true);
    expect(models.activeVersion()!.id).toBe(first);
    const fresh = modelService(other);
    await fresh.followPromotions();
    expect(fresh.activeVersion()!.id).toBe(first);
    const listing = await listModelVersions(db.dataSource);
    expect(listing.serving).toBe(first);
    const row = listing.versions.find((v) => v.id === rejected)!;
    expect(row).toMatchObject({ status: 'rejected', serving: false, promoted_at: null });
    // judged by a trial trained on the facts the serving version had, both scored on outcomes resolved since
    expect(row.challenge).toMatchObject({ against: first, promoted: false, as_of: '2021-06-30', trial_cutoff: '2021-03-31' });
    expect(brierOf((row.challenge as { checks: [] }).checks)).toEqual(brierOf(outcome.verdict!.checks));
  }, 120_000);

  it('keeps as rejected a version whose own training failed though its trial was sound: it scores worse than its trial on what it learned', async () => {
    degrade = "today's training";
    const outcome = await models.retrain();
    degrade = 'no';
    failedFit = outcome.version.id;
    expect(outcome.promoted).toBe(false);
    expect(models.activeVersion()!.id).toBe(first);
    expect(outcome.verdict!.checks.filter((c) => c.compared === 'trial_vs_serving' && !c.passed)).toEqual([]);
    const sanity = outcome.verdict!.checks.filter((c) => c.compared === 'challenger_vs_trial');
    expect(sanity).toHaveLength(4);
    expect(sanity.filter((c) => c.judged && !c.passed).map((c) => c.output)).toContain('royal_assent');
  }, 120_000);

  it('promote serves another version (here the rejected one) on every instance, and a better retrain then replaces it', async () => {
    const elsewhere = modelService(other);
    await elsewhere.followPromotions();
    expect(await promoteModelVersion(db.dataSource, String(rejected))).toEqual({ serving: rejected, previous: first });
    // each instance's 2 s poll follows the promotions
    await Promise.all([models.followPromotions(), elsewhere.followPromotions()]);
    expect(models.activeVersion()!.id).toBe(rejected);
    expect(elsewhere.activeVersion()!.id).toBe(rejected);

    clock.moveTo('2021-12-31');
    const outcome = await models.retrain();
    expect(outcome.promoted).toBe(true);
    // judged on the outcomes resolved since the serving version's cutoff: the last session's fates were known by then
    const scored = outcome.verdict!.checks.filter((c) => c.compared === 'trial_vs_serving' && c.serving !== null);
    expect(scored.length).toBeGreaterThan(0);
    for (const check of scored) expect(check.challenger!).toBeLessThan(check.serving!);
    expect(models.activeVersion()!.id).toBe(outcome.version.id);
    await elsewhere.followPromotions();
    expect(elsewhere.activeVersion()!.id).toBe(outcome.version.id);
    const listing = await listModelVersions(db.dataSource);
    expect(listing.serving).toBe(outcome.version.id);
    expect(listing.versions.map((v) => [v.id, v.status])).toEqual([
      [outcome.version.id, 'accepted'],
      [failedFit, 'rejected'],
      [rejected, 'accepted'],
      [first, 'accepted'],
    ]);
  }, 120_000);

  it('refuses to promote a version that does not exist', async () => {
    await expect(promoteModelVersion(db.dataSource, '999')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(promoteModelVersion(db.dataSource, 'latest')).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});

describe('the retrain schedule', () => {
  const DAY = 86_400_000;
  function instance(database: Database, retrains: { count: number }, now: { at: Date }) {
    const models = {
      activeVersion: () => ({ id: 1, created_at: '2026-01-01T00:00:00.000Z' }) as never,
      retrain: async () => {
        retrains.count += 1;
        await new Promise((r) => setTimeout(r, 50));
        return { promoted: true } as never;
      },
    };
    return new ScheduledRetrain(database.dataSource, models, logger, { intervalDays: 7, postgres: usingPostgres(), now: () => now.at });
  }

  it('makes one retrain per period between two instances', async () => {
    const retrains = { count: 0 };
    const now = { at: new Date(Math.floor(Date.parse('2026-10-14T10:00:00Z') / (7 * DAY)) * 7 * DAY + 3_600_000) };
    const a = instance(db, retrains, now);
    const b = instance(other, retrains, now);
    expect((await Promise.all([a.runDue(), b.runDue()])).sort()).toEqual(['claimed elsewhere', 'promoted']);
    now.at = new Date(now.at.getTime() + 3 * DAY);
    expect(await Promise.all([a.runDue(), b.runDue()])).toEqual(['claimed elsewhere', 'claimed elsewhere']);
    now.at = new Date(now.at.getTime() + 4 * DAY);
    expect((await Promise.all([b.runDue(), a.runDue()])).sort()).toEqual(['claimed elsewhere', 'promoted']);
    expect(retrains.count).toBe(2);
  });

  it('is not due while the serving version was made in the current period', async () => {
    const retrains = { count: 0 };
    const models = { activeVersion: () => ({ created_at: new Date().toISOString() }) as never, retrain: async () => ((retrains.count += 1), {} as never) };
    const scheduled = new ScheduledRetrain(db.dataSource, models, logger, { intervalDays: 7, postgres: usingPostgres() });
    expect(await scheduled.runDue()).toBe('not due');
    expect(retrains.count).toBe(0);
  });
});
