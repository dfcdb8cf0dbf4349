import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stage records the events refresh reports (src/services/stage-records.ts) are found by their first
 * sitting date and by the day a sync first saw it: without these indexes each refresh read every
 * stage record of every bill, one statement that held the embedded database's thread for tens of
 * milliseconds with 3,000 bills and grew with the data.
 */
export class StageFirstSittingIndexes1790700000000 implements MigrationInterface {
  name = 'StageFirstSittingIndexes1790700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "idx_bill_stage_first_sitting" ON "bill_stage" ((sitting_dates[1]))`);
    await queryRunner.query(`CREATE INDEX "idx_bill_stage_sitting_first_seen" ON "bill_stage" ("sitting_first_seen_day")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_bill_stage_sitting_first_seen"`);
    await queryRunner.query(`DROP INDEX "idx_bill_stage_first_sitting"`);
  }
}
