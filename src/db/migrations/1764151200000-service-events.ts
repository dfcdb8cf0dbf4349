import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The event log and the record of the last events refresh. */
export class ServiceEvents1764151200000 implements MigrationInterface {
  name = 'ServiceEvents1764151200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "event_refresh" ("name" text NOT NULL, "service_day" date NOT NULL, "data_state" text NOT NULL, "model_version" integer NOT NULL, "refreshed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_a75ad1b118e1410e67391bc166d" PRIMARY KEY ("name"))`);
    await queryRunner.query(`CREATE TABLE "service_event" ("id" text NOT NULL, "type" text NOT NULL, "bill_id" integer NOT NULL, "account_id" integer, "service_day" date NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "data" jsonb NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e65986d882b4bb30bea3e4224bb" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_service_event_day" ON "service_event" ("service_day") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_service_event_day"`);
    await queryRunner.query(`DROP TABLE "service_event"`);
    await queryRunner.query(`DROP TABLE "event_refresh"`);
  }
}
