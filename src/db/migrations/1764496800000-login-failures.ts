import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The dashboard's failed log-ins, shared by every instance (src/attempts/login-failure-store.ts). */
export class LoginFailures1764496800000 implements MigrationInterface {
  name = 'LoginFailures1764496800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "login_failure" ("key" text NOT NULL, "failed_at" TIMESTAMP WITH TIME ZONE NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "idx_login_failure_key" ON "login_failure" ("key", "failed_at")`);
    await queryRunner.query(`CREATE INDEX "idx_login_failure_failed_at" ON "login_failure" ("failed_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "login_failure"`);
  }
}
