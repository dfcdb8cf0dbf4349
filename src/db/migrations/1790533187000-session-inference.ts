import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the service worked out about sessions by itself, with when it did: the Bills API has no
 * sessions endpoint, so a new session is learned from its bills, and the end of the one before is
 * inferred from it. `learned_at` is when this database first recorded a session (null for those
 * stored before this migration); `end_date_inferred` marks an end date worked out rather than taken
 * from the built-in table or a snapshot, and `end_inferred_at` when that was done.
 */
export class SessionInference1790533187000 implements MigrationInterface {
  name = 'SessionInference1790533187000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "parliamentary_session" ADD "end_date_inferred" boolean NOT NULL DEFAULT false, ADD "end_inferred_at" TIMESTAMP WITH TIME ZONE, ADD "learned_at" TIMESTAMP WITH TIME ZONE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "parliamentary_session" DROP COLUMN "learned_at", DROP COLUMN "end_inferred_at", DROP COLUMN "end_date_inferred"`);
  }
}
