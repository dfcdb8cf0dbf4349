import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stage sittings seen dated after the day of the sync that saw them, with the day first seen; a
 * moved date supersedes its row and adds one. At most one standing row per stage and date.
 */
export class ScheduledSittings1790561234000 implements MigrationInterface {
  name = 'ScheduledSittings1790561234000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scheduled_sitting" ("id" SERIAL NOT NULL, "bill_id" integer NOT NULL, "bill_stage_id" integer NOT NULL, "stage" text NOT NULL, "house" text NOT NULL, "scheduled_for" date NOT NULL, "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "first_seen_day" date NOT NULL, "superseded_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_scheduled_sitting" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_scheduled_sitting_bill" ON "scheduled_sitting" ("bill_id", "scheduled_for") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_scheduled_sitting_standing" ON "scheduled_sitting" ("bill_stage_id", "scheduled_for") WHERE "superseded_at" IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "scheduled_sitting" ADD CONSTRAINT "fk_scheduled_sitting_bill" FOREIGN KEY ("bill_id") REFERENCES "bill"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "scheduled_sitting"`);
  }
}
