import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Watchlists, alert thresholds with their arm states and triggers, prediction snapshots, scheduled job runs. */
export class WatchlistsAndAlerts1764064800000 implements MigrationInterface {
  name = 'WatchlistsAndAlerts1764064800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "watchlist" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "name" text NOT NULL, "description" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0c8c0dbcc8d379117138e71ad5b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_watchlist_account_name" ON "watchlist" ("account_id", "name")`);
    await queryRunner.query(`CREATE TABLE "alert_threshold" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "watchlist_id" integer NOT NULL, "bill_id" integer, "alert_type" text NOT NULL, "threshold_value" double precision NOT NULL, "comparison" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_triggered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_0b0d3b0c306d58329624d648da2" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_alert_threshold_watchlist" ON "alert_threshold" ("watchlist_id")`);
    await queryRunner.query(`CREATE INDEX "idx_alert_threshold_account" ON "alert_threshold" ("account_id")`);
    await queryRunner.query(`CREATE TABLE "alert_arm_state" ("threshold_id" integer NOT NULL, "bill_id" integer NOT NULL, "armed" boolean NOT NULL, CONSTRAINT "PK_305c68d781ebca40094efdef9a7" PRIMARY KEY ("threshold_id", "bill_id"))`);
    await queryRunner.query(`CREATE TABLE "alert_trigger" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "threshold_id" integer NOT NULL, "watchlist_id" integer NOT NULL, "watchlist_name" text NOT NULL, "bill_id" integer NOT NULL, "alert_type" text NOT NULL, "comparison" text NOT NULL, "threshold_value" double precision NOT NULL, "value_seen" double precision NOT NULL, "reference_date" date NOT NULL, "triggered_at" TIMESTAMP WITH TIME ZONE NOT NULL, "source" text NOT NULL, CONSTRAINT "PK_39b9eb33c043a3121d6aa39482a" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_alert_trigger_account_time" ON "alert_trigger" ("account_id", "triggered_at")`);
    await queryRunner.query(`CREATE TABLE "job_run" ("name" text NOT NULL, "period_start" TIMESTAMP WITH TIME ZONE NOT NULL, "claimed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_a72b11a6ed99e4f8554c29addef" PRIMARY KEY ("name"))`);
    await queryRunner.query(`CREATE TABLE "prediction_snapshot" ("id" SERIAL NOT NULL, "bill_id" integer NOT NULL, "reference_date" date NOT NULL, "model_version" integer NOT NULL, "royal_assent" double precision NOT NULL, "next_stage30d" double precision NOT NULL, "timeline_eta_days" double precision, "taken_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_15c18781acdb5566d20066c2a17" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_prediction_snapshot_bill" ON "prediction_snapshot" ("bill_id", "id")`);
    await queryRunner.query(`CREATE TABLE "watchlist_bill" ("watchlist_id" integer NOT NULL, "bill_id" integer NOT NULL, "added_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a61c1dae8a6720dac0ecb8f79b9" PRIMARY KEY ("watchlist_id", "bill_id"))`);
    await queryRunner.query(`CREATE INDEX "idx_watchlist_bill_bill" ON "watchlist_bill" ("bill_id")`);
    await queryRunner.query(`ALTER TABLE "watchlist" ADD CONSTRAINT "fk_watchlist_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "alert_threshold" ADD CONSTRAINT "fk_alert_threshold_watchlist" FOREIGN KEY ("watchlist_id") REFERENCES "watchlist"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "alert_arm_state" ADD CONSTRAINT "fk_alert_arm_state_threshold" FOREIGN KEY ("threshold_id") REFERENCES "alert_threshold"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "watchlist_bill" ADD CONSTRAINT "fk_watchlist_bill_watchlist" FOREIGN KEY ("watchlist_id") REFERENCES "watchlist"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "watchlist_bill" DROP CONSTRAINT "fk_watchlist_bill_watchlist"`);
    await queryRunner.query(`ALTER TABLE "alert_arm_state" DROP CONSTRAINT "fk_alert_arm_state_threshold"`);
    await queryRunner.query(`ALTER TABLE "alert_threshold" DROP CONSTRAINT "fk_alert_threshold_watchlist"`);
    await queryRunner.query(`ALTER TABLE "watchlist" DROP CONSTRAINT "fk_watchlist_account"`);
    await queryRunner.query(`DROP INDEX "public"."idx_watchlist_bill_bill"`);
    await queryRunner.query(`DROP TABLE "watchlist_bill"`);
    await queryRunner.query(`DROP INDEX "public"."idx_prediction_snapshot_bill"`);
    await queryRunner.query(`DROP TABLE "prediction_snapshot"`);
    await queryRunner.query(`DROP TABLE "job_run"`);
    await queryRunner.query(`DROP INDEX "public"."idx_alert_trigger_account_time"`);
    await queryRunner.query(`DROP TABLE "alert_trigger"`);
    await queryRunner.query(`DROP TABLE "alert_arm_state"`);
    await queryRunner.query(`DROP INDEX "public"."idx_alert_threshold_account"`);
    await queryRunner.query(`DROP INDEX "public"."idx_alert_threshold_watchlist"`);
    await queryRunner.query(`DROP TABLE "alert_threshold"`);
    await queryRunner.query(`DROP INDEX "public"."uq_watchlist_account_name"`);
    await queryRunner.query(`DROP TABLE "watchlist"`);
  }
}
