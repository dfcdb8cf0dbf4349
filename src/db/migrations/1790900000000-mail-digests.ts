import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33, email digests: each digest slot occurrence handled per account (`mail_digest`), unique
 * per account, slot and occurrence, so a digest is written once whoever gets to it.
 */
export class MailDigests1790900000000 implements MigrationInterface {
  name = 'MailDigests1790900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "mail_digest" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "slot" text NOT NULL, "slot_at" TIMESTAMP WITH TIME ZONE NOT NULL, "covered_until" TIMESTAMP WITH TIME ZONE NOT NULL, "event_ids" text array NOT NULL DEFAULT '{}', "probabilities" jsonb NOT NULL DEFAULT '{}', "mail_event_id" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_mail_digest" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_mail_digest_account_slot_at" ON "mail_digest" ("account_id", "slot", "slot_at")`);
    await queryRunner.query(`ALTER TABLE "mail_digest" ADD CONSTRAINT "fk_mail_digest_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mail_digest" DROP CONSTRAINT "fk_mail_digest_account"`);
    await queryRunner.query(`DROP INDEX "public"."uq_mail_digest_account_slot_at"`);
    await queryRunner.query(`DROP TABLE "mail_digest"`);
  }
}
