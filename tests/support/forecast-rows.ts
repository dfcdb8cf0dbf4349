import type { DataSource } from 'typeorm';

/** A stored forecast of record, with the model version's own cutoff and vintage beside it. */
export interface StoredForecast {
  id: number;
  bill_id: number;
  forecast_date: string;
  output: string;
  value: number;
  table_value: number;
  model_version: number;
  trained_through: string;
  source: string;
  training_cutoff: string;
  vintage: unknown;
}

/** Every forecast of record stored (of one source when given), in the order recorded. */
export const storedForecasts = async (dataSource: DataSource, source?: 'live' | 'backfilled'): Promise<StoredForecast[]> =>
  (await dataSource.query(
    `SELECT f.id, f.bill_id, f.forecast_date::text AS forecast_date, f.output, f.value, f.table_value, f.model_version, f.trained_through::text AS trained_through, f.source,
            m.training_cutoff::text AS training_cutoff, m.metrics -> 'vintage' AS vintage
       FROM forecast_of_record f JOIN model_version m ON m.id = f.model_version WHERE $1::text IS NULL OR f.source = $1 ORDER BY f.id`,
    [source ?? null],
  )) as StoredForecast[];
