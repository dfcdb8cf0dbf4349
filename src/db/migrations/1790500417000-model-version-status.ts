import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which model version serves is stored, not inferred from "the newest": a scheduled retrain keeps
 * a worse version as rejected, and an operator can promote an older one (a rollback) for every
 * instance. Existing versions were served in the order they were made.
 */
export class ModelVersionStatus1790500417000 implements MigrationInterface {
  name = 'ModelVersionStatus1790500417000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "model_version" ADD "status" text NOT NULL DEFAULT 'accepted'`);
    await queryRunner.query(`ALTER TABLE "model_version" ADD "promoted_at" TIMESTAMP WITH TIME ZONE DEFAULT now()`);
    await queryRunner.query(`UPDATE "model_version" SET "promoted_at" = "created_at"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "model_version" DROP COLUMN "promoted_at"`);
    await queryRunner.query(`ALTER TABLE "model_version" DROP COLUMN "status"`);
  }
}
