import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import path from 'node:path';
import { ServiceClock } from '../../src/common/clock';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { createLogger } from '../../src/logger';
import { Readiness } from '../../src/health/readiness';
import { ModelService } from '../../src/services/model.service';
import { listModelVersions, promoteModelVersion } from '../../src/services/model-versions';
import type { PredictionResult } from '../../src/services/prediction-result';
import { PredictionService } from '../../src/services/prediction.service';
import { AppError } from '../../src/errors';
import { REAL_SNAPSHOT_DIR, VINTAGE_BILL_IDS, vintageSnapshot } from '../support/fixtures';
import { TEST_TRAINING } from '../support/test-app';
import { openTestDatabase } from '../support/test-database';

// Point-in-time models (issue 23): a nowcast at a past date comes from a model trained only on
// facts dated on or before it, so two databases that agree up to that date answer it alike,
// whatever each learned later; until such a model exists the answer says it is in sample.

/** A day of the 2019-21 session (35): its vintage learned from the sessions before it. */
const DAY = '2020-03-01';
const TODAY = '2021-12-31';
const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }) as never);

const BILL_IDS = VINTAGE_BILL_IDS;

/** The same bills whose story after DAY went otherwise: no later sitting, division, withdrawal or Royal Assent; they fell. */
function otherFuture(bill: any): any {
  const settledAfter = (date: string | null) => Boolean(date && date > DAY);
  const changed = settledAfter(bill.royalAssentDate) || settledAfter(bill.withdrawnDate);
  return {
    ...bill,
    stages: bill.stages.map((s: any) => ({ ...s, dates: s.dates.filter((d: string) => d <= DAY), datesAfterSessionEnd: (s.datesAfterSessionEnd ?? []).filter((d: string) => d <= DAY) })),
    divisions: bill.divisions.filter((d: any) => d.date <= DAY),
    ...(changed ? { royalAssentDate: null, isAct: false, withdrawnDate: null, outcome: 'fell' } : {}),
  };
}

const snapshot = vintageSnapshot;

const ofSession35 = (ids: number[]) => ids.filter((id) => BILL_IDS.includes(id));

interface World {
  /** nowcasts at DAY by the serving model alone, then with the vintages trained */
  before: PredictionResult[];
  after: PredictionResult[];
  today: PredictionResult[];
  servingCutoff: string;
  vintages: { session_id: number; training_cutoff: string }[];
  listed: { id: number; vintage: unknown }[];
  afterPromote: PredictionResult[];
}

const numbers = (results: PredictionResult[]) => results.map((r) => ({ billId: r.billId, status: r.status, probabilities: r.probabilities, eta: r.timelineEtaDays, controversy: r.controversyScore, momentum: r.momentumScore }));

/** One database: ingest, train the serving model, nowcast DAY, train the vintages, nowcast DAY again. */
async function live(snapshotDir: string, billsAtDay: number[]): Promise<World> {
  const db = await openTestDatabase();
  try {
    await ingest(db.dataSource, new SnapshotSource(snapshotDir));
    const clock = new ServiceClock(undefined);
    clock.setDataAsOf(TODAY);
    const models = new ModelService(db.dataSource, new Readiness(), clock, logger, TEST_TRAINING);
    const predictions = new PredictionService(db.dataSource, models, clock);
    const serving = await models.train();
    const ok = (results: (PredictionResult | AppError)[]) => results.filter((r): r is PredictionResult => !(r instanceof AppError));
    const before = ok(await predictions.nowcasts(billsAtDay, DAY));
    const run = await models.trainVintages();
    const after = ok(await predictions.nowcasts(billsAtDay, DAY));
    const today = ok(await predictions.nowcasts(billsAtDay, TODAY));
    // a retrain that serves, and a promote of an older serving version, leave past dates to the vintages
    await models.train();
    await promoteModelVersion(db.dataSource, String(serving.id));
    await models.followPromotions();
    const afterPromote = ok(await predictions.nowcasts(billsAtDay, DAY));
    const listed = (await listModelVersions(db.dataSource)).versions;
    return { before, after, today, servingCutoff: serving.training_cutoff, vintages: run.trained, listed, afterPromote };
  } finally {
    await db.close();
  }
}

describe('point-in-time models (vintages)', () => {
  let known: World;
  let otherwise: World;
  const sessionBills = readFileSync(path.join(REAL_SNAPSHOT_DIR, 'bills.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { billId: number; introducedSessionId: number; introducedDate: string | null })
    .filter((b) => b.introducedSessionId === 35 && b.introducedDate && b.introducedDate <= DAY)
    .map((b) => b.billId);
  beforeAll(async () => {
    known = await live(snapshot(), ofSession35(sessionBills));
    otherwise = await live(snapshot(otherFuture), ofSession35(sessionBills));
  }, 300_000);

  it('two databases that agree up to a date give identical nowcasts at it once each trained its vintages', () => {
    expect(known.after.length).toBeGreaterThan(20);
    expect(numbers(otherwise.after)).toEqual(numbers(known.after));
    for (const r of known.after) {
      expect(r.model.outOfSample).toBe(true);
      expect(r.model.trainedThrough <= DAY).toBe(true);
    }
    // the vintage of session 35: trained through the eve of its start, the newest on or before DAY
    expect(known.after[0].model.trainedThrough).toBe(known.vintages.find((v) => v.session_id === 35)!.training_cutoff);
  });

  it('before the vintages exist, a past date is answered by the serving model and marked in sample (and the futures show through)', () => {
    for (const r of known.before) expect(r.model).toEqual({ version: expect.any(Number), trainedThrough: known.servingCutoff, outOfSample: false });
    expect(numbers(otherwise.before)).not.toEqual(numbers(known.before));
  });

  it('today is answered by the serving model, out of sample', () => {
    for (const r of known.today) expect(r.model).toEqual({ version: expect.any(Number), trainedThrough: TODAY, outOfSample: true });
  });

  it('trains a vintage per session, newest first, stored and listed; a retrain or a promote does not change who answers a past date', () => {
    // none for session 30: no session had ended before it began (in this fixture)
    expect(known.vintages.map((v) => v.session_id)).toEqual([35, 34]);
    const listedVintages = known.listed.filter((v) => v.vintage !== null).map((v) => v.vintage);
    expect(listedVintages).toEqual([{ session_id: 34 }, { session_id: 35 }]);
    expect(numbers(known.afterPromote)).toEqual(numbers(known.after));
    expect(known.afterPromote.map((r) => r.model)).toEqual(known.after.map((r) => r.model));
  });
});
