import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33, email: the mail outbox (`mail_message`, composed messages with their Message-ID, claimed
 * and retried as webhook deliveries are), the local mailbox used without SMTP_URL, the verification
 * links (their tokens' SHA-256 only) and each account's email status. Accounts made before start
 * UNVERIFIED: nothing is mailed to an address until its owner has opened a verification link.
 */
export class MailOutbox1790850000000 implements MigrationInterface {
  name = 'MailOutbox1790850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "mail_message" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "kind" text NOT NULL, "event_id" text NOT NULL, "to_address" text NOT NULL, "message_id" text NOT NULL, "subject" text NOT NULL, "text_body" text NOT NULL, "raw" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempt" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "claimed_at" TIMESTAMP WITH TIME ZONE, "last_error" text, "sent_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d23285093ea237bc7632d4fcce9" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_mail_message_due" ON "mail_message" ("next_attempt_at") WHERE "status" = 'pending'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_mail_message_account_event" ON "mail_message" ("account_id", "event_id")`);
    await queryRunner.query(`CREATE TABLE "local_mailbox" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "mail_message_id" integer NOT NULL, "to_address" text NOT NULL, "message_id" text NOT NULL, "event_id" text NOT NULL, "subject" text NOT NULL, "text_body" text NOT NULL, "delivered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c9a0b54af4ad7ad0be5e03217ae" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_local_mailbox_account" ON "local_mailbox" ("account_id", "id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_local_mailbox_message" ON "local_mailbox" ("mail_message_id")`);
    await queryRunner.query(`CREATE TABLE "email_verification" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "token_hash" bytea NOT NULL, "email" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b985a8362d9dac51e3d6120d40e" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_email_verification_account" ON "email_verification" ("account_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_email_verification_token" ON "email_verification" ("token_hash")`);
    await queryRunner.query(`ALTER TABLE "account" ADD "email_status" text NOT NULL DEFAULT 'UNVERIFIED'`);
    await queryRunner.query(`ALTER TABLE "mail_message" ADD CONSTRAINT "fk_mail_message_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "local_mailbox" ADD CONSTRAINT "fk_local_mailbox_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "email_verification" ADD CONSTRAINT "fk_email_verification_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "email_verification" DROP CONSTRAINT "fk_email_verification_account"`);
    await queryRunner.query(`ALTER TABLE "local_mailbox" DROP CONSTRAINT "fk_local_mailbox_account"`);
    await queryRunner.query(`ALTER TABLE "mail_message" DROP CONSTRAINT "fk_mail_message_account"`);
    await queryRunner.query(`ALTER TABLE "account" DROP COLUMN "email_status"`);
    await queryRunner.query(`DROP INDEX "public"."uq_email_verification_token"`);
    await queryRunner.query(`DROP INDEX "public"."idx_email_verification_account"`);
    await queryRunner.query(`DROP TABLE "email_verification"`);
    await queryRunner.query(`DROP INDEX "public"."uq_local_mailbox_message"`);
    await queryRunner.query(`DROP INDEX "public"."idx_local_mailbox_account"`);
    await queryRunner.query(`DROP TABLE "local_mailbox"`);
    await queryRunner.query(`DROP INDEX "public"."uq_mail_message_account_event"`);
    await queryRunner.query(`DROP INDEX "public"."idx_mail_message_due"`);
    await queryRunner.query(`DROP TABLE "mail_message"`);
  }
}
