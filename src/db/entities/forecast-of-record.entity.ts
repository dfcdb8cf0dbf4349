import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** Whether a forecast of record was published on its day, or made afterwards by a model trained only on facts dated before its day. */
export type ForecastSource = 'live' | 'backfilled';

/**
 * One output of a bill's nowcast as the service published it on a day (issue 35): the value, the
 * kind × stage table's value beside it, the model that made it and whether that model was out of
 * sample for the day. Written once and never changed: a later sync, retrain or promotion adds rows
 * of its own. What happened afterwards is read from the bill's record when the forecast is scored.
 */
@Entity('forecast_of_record')
@Check('ck_forecast_of_record_source', `"source" IN ('live', 'backfilled')`)
// out of sample by construction: only a model trained through the forecast's day or before makes one
@Check('ck_forecast_of_record_out_of_sample', `"trained_through" <= "forecast_date"`)
@Index('uq_forecast_of_record', ['billId', 'forecastDate', 'output', 'source', 'modelVersion', 'value'], { unique: true })
@Index('idx_forecast_of_record_date', ['forecastDate'])
export class ForecastOfRecordEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  billId: number;

  @Column({ type: 'date' })
  forecastDate: string;

  /** royal_assent, next_stage_30d, timeline_eta (days), stall_risk, withdrawal_risk, amendment_risk, close_vote */
  @Column({ type: 'text' })
  output: string;

  @Column({ type: 'double precision' })
  value: number;

  @Column({ type: 'double precision' })
  tableValue: number;

  @Column({ type: 'integer' })
  modelVersion: number;

  /** the last date whose facts the model learned from */
  @Column({ type: 'date' })
  trainedThrough: string;

  @Column({ type: 'text' })
  source: ForecastSource;

  @CreateDateColumn({ type: 'timestamptz' })
  recordedAt: Date;
}

/** A day of the backfill's grid that has been backfilled (with however many forecasts, none included): never backfilled again. */
@Entity('forecast_backfill_day')
export class ForecastBackfillDayEntity {
  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'integer' })
  forecasts: number;

  @CreateDateColumn({ type: 'timestamptz' })
  doneAt: Date;
}
