import type { DataSource, EntityManager } from 'typeorm';
import { ForecastOfRecordEntity, type ForecastSource } from '../db/entities/forecast-of-record.entity';
import { insertJsonRows } from '../db/json-rows';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import type { ServiceClock } from '../common/clock';
import { addDays } from '../common/dates';
import { outputsOf } from '../model/serve/predictor';
import { OUTPUT_WORDS } from '../vocabulary';
import { EVALUATION_STEP_DAYS, gridDates } from '../model/train/samples';
import type { ModelService } from './model.service';
import type { PredictionResult } from './prediction-result';
import type { PredictionService } from './prediction.service';

/** The record is backfilled from the start of this session on: the first the vintages answer with several sessions behind them. */
export const BACKFILL_FROM_SESSION = '2014-15';

/** The columns a forecast of record is told apart by: the same forecast recorded again is the same row. */
const FORECAST_KEY: (keyof ForecastOfRecordEntity)[] = ['billId', 'forecastDate', 'output', 'source', 'modelVersion', 'value'];

/**
 * The forecasts of record of published nowcasts: every output of each live bill's nowcast, with its
 * kind × stage table value, from a model out of sample for the day (trained only on facts dated
 * on or before it). A settled bill's nowcast forecasts nothing; an in-sample one is no test.
 */
export function forecastRows(nowcasts: readonly PredictionResult[], source: ForecastSource): Partial<ForecastOfRecordEntity>[] {
  const rows: Partial<ForecastOfRecordEntity>[] = [];
  for (const n of nowcasts) {
    if (n.status !== 'live' || !n.table || !n.model.outOfSample) continue;
    const values = outputsOf(n);
    // every output (timeline_eta in days)
    for (const output of OUTPUT_WORDS) {
      const value = values[output];
      if (value === null || !Number.isFinite(value)) continue;
      rows.push({ billId: n.billId, forecastDate: n.referenceDate, output, value, tableValue: n.table[output], modelVersion: n.model.version, trainedThrough: n.model.trainedThrough, source });
    }
  }
  return rows;
}

/** Records forecasts; one already recorded (the same bill, day, output, source, model and value) stays as it was. */
export async function recordForecasts(manager: EntityManager, rows: Partial<ForecastOfRecordEntity>[]): Promise<void> {
  await insertJsonRows(manager, ForecastOfRecordEntity, rows, { keepStoredOn: FORECAST_KEY as string[], rowsPerStatement: 700 });
}

export interface BackfillReport {
  days: number;
  forecasts: number;
}

/**
 * The record before the service published it: on every day of the evaluation's 14-day grid from
 * the start of BACKFILL_FROM_SESSION to the day before today that has no backfilled forecast yet,
 * the nowcasts of the bills then live, each by the vintage that answers the day (ModelService's
 * provenance: the newest version trained through the day or before). A day no model is out of
 * sample for (vintages still training) is left for a later run; a day done is never done again.
 */
export class ForecastBackfill {
  private running: Promise<BackfillReport> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly predictions: PredictionService,
    private readonly models: ModelService,
    private readonly clock: ServiceClock,
    private readonly logger: Logger,
  ) {}

  /** Backfills the days missing; one run at a time (a call during a run gets that run). */
  run(signal?: AbortSignal): Promise<BackfillReport> {
    this.running ??= this.backfill(signal).finally(() => (this.running = null));
    return this.running;
  }

  private async backfill(signal?: AbortSignal): Promise<BackfillReport> {
    const report: BackfillReport = { days: 0, forecasts: 0 };
    for (const day of await this.missingDays()) {
      if (signal?.aborted) break;
      if (!this.models.provenanceFor(day).outOfSample) continue;
      const nowcasts = (await this.predictions.nowcasts(await this.billsInSessionOn(day), day, { keep: false })).filter((n): n is PredictionResult => !(n instanceof AppError));
      const rows = forecastRows(nowcasts, 'backfilled');
      const claimed = await this.dataSource.transaction(async (manager) => {
        // the day claimed first: another process backfilling it too waits on the claim, then finds it taken and records nothing
        const taken = (await manager.query(`INSERT INTO forecast_backfill_day (day, forecasts) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING RETURNING day`, [day, rows.length])) as unknown[];
        if (taken.length) await recordForecasts(manager, rows);
        return taken.length > 0;
      });
      if (!claimed) continue;
      report.days += 1;
      report.forecasts += rows.length;
    }
    if (report.days) this.logger.info(report, 'forecasts of record backfilled');
    return report;
  }

  /** The grid days from the first backfilled session's start to yesterday not yet backfilled. */
  private async missingDays(): Promise<string[]> {
    const [first] = (await this.dataSource.query(`SELECT min(first_sitting_date)::text AS start FROM parliamentary_session WHERE name >= $1`, [BACKFILL_FROM_SESSION])) as { start: string | null }[];
    if (!first?.start) return [];
    const done = new Set(((await this.dataSource.query(`SELECT day::text AS day FROM forecast_backfill_day`)) as { day: string }[]).map((r) => r.day));
    return gridDates(first.start, addDays(this.clock.today(), -1), EVALUATION_STEP_DAYS).filter((day) => !done.has(day));
  }

  /** Bills introduced by the day in a session sitting on it (begun, not yet ended): those that may be live then. */
  private async billsInSessionOn(day: string): Promise<number[]> {
    const rows = (await this.dataSource.query(
      `SELECT b.id FROM bill b WHERE b.introduced_date <= $1
          AND EXISTS (SELECT 1 FROM parliamentary_session s WHERE s.id = ANY(b.session_ids) AND s.first_sitting_date <= $1 AND (s.end_date IS NULL OR s.end_date >= $1))
        ORDER BY b.id`,
      [day],
    )) as { id: number }[];
    return rows.map((r) => r.id);
  }
}
