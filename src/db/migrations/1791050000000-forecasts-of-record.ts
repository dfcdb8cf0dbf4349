import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 35, forecasts anyone can check: each published nowcast's outputs, kept as they were. */
export class ForecastsOfRecord1791050000000 implements MigrationInterface {
  name = 'ForecastsOfRecord1791050000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "forecast_of_record" (
         "id" SERIAL NOT NULL,
         "bill_id" integer NOT NULL,
         "forecast_date" date NOT NULL,
         "output" text NOT NULL,
         "value" double precision NOT NULL,
         "table_value" double precision NOT NULL,
         "model_version" integer NOT NULL,
         "trained_through" date NOT NULL,
         "source" text NOT NULL,
         "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
         CONSTRAINT "ck_forecast_of_record_source" CHECK ("source" IN ('live', 'backfilled')),
         -- out of sample by construction: only a model trained through the forecast's day or before makes one
         CONSTRAINT "ck_forecast_of_record_out_of_sample" CHECK ("trained_through" <= "forecast_date"),
         CONSTRAINT "PK_forecast_of_record" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_forecast_of_record" ON "forecast_of_record" ("bill_id", "forecast_date", "output", "source", "model_version", "value")`);
    await queryRunner.query(`CREATE INDEX "idx_forecast_of_record_date" ON "forecast_of_record" ("forecast_date")`);
    // the days backfilled, those with no live bill included: a day done is never done again
    await queryRunner.query(`CREATE TABLE "forecast_backfill_day" ("day" date NOT NULL, "forecasts" integer NOT NULL, "done_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_forecast_backfill_day" PRIMARY KEY ("day"))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "forecast_backfill_day"`);
    await queryRunner.query(`DROP TABLE "forecast_of_record"`);
  }
}
