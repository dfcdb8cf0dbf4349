import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The service's day a scheduled sitting's date was superseded: a nowcast at a past date uses the
 * date that stood on that day, and the day (not the wall-clock time) is what it compares. Rows
 * superseded before this column existed take their timestamp's UTC day.
 */
export class ScheduledSittingSupersededDay1790600000000 implements MigrationInterface {
  name = 'ScheduledSittingSupersededDay1790600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scheduled_sitting" ADD "superseded_day" date`);
    await queryRunner.query(`UPDATE "scheduled_sitting" SET "superseded_day" = ("superseded_at" AT TIME ZONE 'UTC')::date WHERE "superseded_at" IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scheduled_sitting" DROP COLUMN "superseded_day"`);
  }
}
