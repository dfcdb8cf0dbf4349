import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Daily quota counters per user. */
export class QuotaCounter1763978400000 implements MigrationInterface {
  name = 'QuotaCounter1763978400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "quota_counter" ("account_id" integer NOT NULL, "day" date NOT NULL, "kind" text NOT NULL, "used" integer NOT NULL, "last_grant" integer NOT NULL, CONSTRAINT "PK_quota_counter" PRIMARY KEY ("account_id", "day", "kind"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "quota_counter"`);
  }
}
