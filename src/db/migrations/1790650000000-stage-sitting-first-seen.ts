import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The day a sync first saw each stage record's first sitting date, so that the refresh reports a
 * stage the Bills API shows late. Rows stored before are left null, as a first sync's are: the
 * service cannot tell when it learned them, and reporting them on upgrade would be a flood of old
 * stages.
 */
export class StageSittingFirstSeen1790650000000 implements MigrationInterface {
  name = 'StageSittingFirstSeen1790650000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "bill_stage" ADD "sitting_first_seen_day" date`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "bill_stage" DROP COLUMN "sitting_first_seen_day"`);
  }
}
