import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhook endpoints (secrets encrypted) and the delivery outbox. */
export class Webhooks1764237600000 implements MigrationInterface {
  name = 'Webhooks1764237600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "webhook_endpoint" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "url" text NOT NULL, "events" text array NOT NULL, "description" text, "all_bills" boolean NOT NULL DEFAULT false, "active" boolean NOT NULL DEFAULT true, "disabled_reason" text, "secret_sealed" text NOT NULL, "previous_secret_sealed" text, "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE, "failing_since" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_webhook_endpoint" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_webhook_endpoint_account" ON "webhook_endpoint" ("account_id")`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "fk_webhook_endpoint_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`CREATE TABLE "webhook_delivery" ("id" SERIAL NOT NULL, "endpoint_id" integer NOT NULL, "event_id" text NOT NULL, "event_type" text NOT NULL, "body" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempt" integer NOT NULL DEFAULT 0, "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "claimed_at" TIMESTAMP WITH TIME ZONE, "last_attempt_at" TIMESTAMP WITH TIME ZONE, "last_status_code" integer, "last_error" text, "last_duration_ms" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_webhook_delivery" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_webhook_delivery_endpoint_event" ON "webhook_delivery" ("endpoint_id", "event_id")`);
    await queryRunner.query(`CREATE INDEX "idx_webhook_delivery_due" ON "webhook_delivery" ("next_attempt_at") WHERE "status" = 'pending'`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD CONSTRAINT "fk_webhook_delivery_endpoint" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_delivery"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoint"`);
  }
}
