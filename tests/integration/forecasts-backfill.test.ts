import { Writable } from 'node:stream';
import { ServiceClock } from '../../src/common/clock';
import { toDayNumber } from '../../src/common/dates';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { createLogger } from '../../src/logger';
import { Readiness } from '../../src/health/readiness';
import { ModelService } from '../../src/services/model.service';
import { promoteModelVersion } from '../../src/services/model-versions';
import { PredictionService } from '../../src/services/prediction.service';
import { ForecastBackfill } from '../../src/services/forecasts-of-record';
import type { PredictionResult } from '../../src/services/prediction-result';
import { vintageSnapshot } from '../support/fixtures';
import { type StoredForecast, storedForecasts } from '../support/forecast-rows';
import { TEST_TRAINING } from '../support/test-app';
import { openTestDatabase, type TestDatabase } from '../support/test-database';

// The record before the service published it (issue 35, item 1): the vintages' out-of-sample
// nowcasts on the 14-day grid, each from a model trained only on facts dated before its day,
// recorded once and never rewritten.

const TODAY = '2021-12-31';
const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }) as never);


let db: TestDatabase;
let models: ModelService;
let predictions: PredictionService;
let backfill: ForecastBackfill;
let rows: StoredForecast[];
let vintageCutoffs: string[];
const record = () => storedForecasts(db.dataSource, 'backfilled');

beforeAll(async () => {
  db = await openTestDatabase();
  await ingest(db.dataSource, new SnapshotSource(vintageSnapshot()));
  const clock = new ServiceClock(undefined);
  clock.setDataAsOf(TODAY);
  models = new ModelService(db.dataSource, new Readiness(), clock, logger, TEST_TRAINING);
  predictions = new PredictionService(db.dataSource, models, clock);
  backfill = new ForecastBackfill(db.dataSource, predictions, models, clock, logger);
  await models.train();
  // before any vintage, no past day has a model out of sample: nothing is backfilled
  expect(await backfill.run()).toEqual({ days: 0, forecasts: 0 });
  vintageCutoffs = (await models.trainVintages()).trained.map((v) => v.training_cutoff).sort();
  await backfill.run();
  rows = await record();
}, 300_000);
afterAll(() => db.close());

describe('backfilled forecasts of record', () => {
  it('are on the 14-day grid, from the first day a vintage is out of sample for, to the day before today', () => {
    const days = [...new Set(rows.map((r) => r.forecast_date))].sort();
    expect(days.length).toBeGreaterThan(30);
    for (const day of days) expect(toDayNumber(day) % 14).toBe(0);
    expect(days[0] >= vintageCutoffs[0]).toBe(true);
    expect(toDayNumber(days[0]) - toDayNumber(vintageCutoffs[0])).toBeLessThan(14);
    expect(days[days.length - 1] < TODAY).toBe(true);
  });

  it('each come from a vintage trained only on facts dated on or before its day', () => {
    for (const r of rows) {
      expect(r.vintage).not.toBeNull();
      expect(r.trained_through).toBe(r.training_cutoff);
      expect(r.training_cutoff <= r.forecast_date).toBe(true);
    }
  });

  it('are the nowcasts that vintage gives on the day, with the table of the same model', async () => {
    const days = [...new Set(rows.map((r) => r.forecast_date))].sort();
    for (const day of [days[0], days[Math.floor(days.length / 2)], days[days.length - 1]]) {
      const ofDay = rows.filter((r) => r.forecast_date === day);
      const bills = [...new Set(ofDay.map((r) => r.bill_id))];
      const nowcasts = (await predictions.nowcasts(bills, day)) as PredictionResult[];
      for (const n of nowcasts) {
        expect(n.status).toBe('live');
        for (const r of ofDay.filter((x) => x.bill_id === n.billId)) {
          expect(r.model_version).toBe(n.model.version);
          expect(r.value).toBe(r.output === 'timeline_eta' ? n.timelineEtaDays : n.probabilities[r.output as keyof typeof n.probabilities]);
          expect(r.table_value).toBe(n.table![r.output as keyof NonNullable<typeof n.table>]);
        }
      }
    }
  });

  it('are kept once when a day is backfilled again: the same forecasts add no row', async () => {
    const days = [...new Set(rows.map((r) => r.forecast_date))].sort().slice(0, 3);
    await db.dataSource.query(`DELETE FROM forecast_backfill_day WHERE day = ANY($1)`, [days]);
    expect((await backfill.run()).days).toBe(3);
    expect(await record()).toEqual(rows);
  });

  it('are recorded once: a second run, a retrain and a promotion leave them as they were', async () => {
    expect(await backfill.run()).toEqual({ days: 0, forecasts: 0 });
    const serving = models.activeVersion()!;
    await models.train();
    await promoteModelVersion(db.dataSource, String(serving.id));
    await models.followPromotions();
    await backfill.run();
    expect(await record()).toEqual(rows);
  });
});
