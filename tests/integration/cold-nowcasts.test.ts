import { ServiceClock } from '../../src/common/clock';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import type { Nowcast, Predictor } from '../../src/model/serve/predictor';
import type { ModelService } from '../../src/services/model.service';
import { PredictionService } from '../../src/services/prediction.service';
import { makeSnapshot, SAMPLE_BILL_IDS } from '../support/fixtures';
import { openTestDatabase, type TestDatabase } from '../support/test-database';

// A restarted server meets its first requests with cold caches: the events refresh, already done for
// its data and model, fills none. Two hundred requests for one bill at once each read that bill's
// facts (its session's private members' bills and their stages) and ran the networks, one query
// after another on the embedded database's thread, for seconds: the requests that find a nowcast
// being computed must join it.

const MODEL = { version: 1, trainedThrough: '2021-01-01', outOfSample: true };
const TODAY = '2021-12-31';

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
  await ingest(db.dataSource, new SnapshotSource(makeSnapshot(SAMPLE_BILL_IDS, { asOf: TODAY })));
}, 120_000);
afterAll(async () => {
  await db?.close();
});

/** Model lookups answered by a predictor that counts the nowcasts it makes. */
function countingModels(): { models: ModelService; nowcastsMade: () => number } {
  let made = 0;
  const predictor = {
    nowcast: (facts: { billId: number }, referenceDate: string): Nowcast => {
      made += 1;
      return { billId: facts.billId, referenceDate, status: 'live', probabilities: { royal_assent: 0.5, next_stage_30d: 0.5, stall_risk: 0.5, withdrawal_risk: 0.1, amendment_risk: 0.2, close_vote: 0.1 }, timelineEtaDays: 10, nextStageAtAll: 0.9, controversyScore: 0, momentumScore: 0, lastStage: null, table: null };
    },
  } as unknown as Predictor;
  const models = { onSwitch: () => undefined, provenanceFor: () => MODEL, predictorOf: async () => predictor, activeVersion: () => ({ id: 1 }) } as unknown as ModelService;
  return { models, nowcastsMade: () => made };
}

it('computes a cold nowcast once for the many requests that ask for it at once, and each gets it', async () => {
  const { models, nowcastsMade } = countingModels();
  const clock = new ServiceClock(undefined);
  clock.setDataAsOf(TODAY);
  const predictions = new PredictionService(db.dataSource, models, clock);
  await predictions.checkDataState();
  const answers = await Promise.all(Array.from({ length: 50 }, () => predictions.nowcast(2900, TODAY)));
  expect(nowcastsMade()).toBe(1);
  expect(new Set(answers).size).toBe(1);
  expect(answers[0]).toMatchObject({ billId: 2900, model: MODEL });
  // a batch that holds the bill being computed and others joins the one and computes the others
  const [batch] = await Promise.all([predictions.nowcasts([2950, 3089, 2950], TODAY), predictions.nowcast(3089, TODAY)]);
  expect(nowcastsMade()).toBe(3);
  expect(batch.map((r) => ('billId' in r ? r.billId : r))).toEqual([2950, 3089, 2950]);
  // once computed, kept
  await predictions.nowcast(2900, TODAY);
  expect(nowcastsMade()).toBe(3);
}, 60_000);
