import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The account dashboard: passwords, browser sessions, and the bills a user opened on the website each day. */
export class DashboardAccounts1764324000000 implements MigrationInterface {
  name = 'DashboardAccounts1764324000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "account" ADD "password_hash" text`);
    await queryRunner.query(
      `CREATE TABLE "dashboard_session" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "token_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_dashboard_session" PRIMARY KEY ("id"), CONSTRAINT "fk_dashboard_session_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_dashboard_session_token_hash" ON "dashboard_session" ("token_hash")`);
    await queryRunner.query(`CREATE INDEX "idx_dashboard_session_account" ON "dashboard_session" ("account_id")`);
    await queryRunner.query(
      `CREATE TABLE "website_bill_view" ("account_id" integer NOT NULL, "day" date NOT NULL, "bill_id" integer NOT NULL, CONSTRAINT "PK_website_bill_view" PRIMARY KEY ("account_id", "day", "bill_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "website_bill_view"`);
    await queryRunner.query(`DROP TABLE "dashboard_session"`);
    await queryRunner.query(`ALTER TABLE "account" DROP COLUMN "password_hash"`);
  }
}
