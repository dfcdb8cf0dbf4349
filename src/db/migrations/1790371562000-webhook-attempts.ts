import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every attempt of a webhook delivery, not only its last: a receiver's earlier 500 or timeout stays
 * listed. Attempts go with their delivery (the retention job removes deliveries). Deliveries
 * attempted before this migration keep their last attempt as their one recorded attempt.
 */
export class WebhookAttempts1790371562000 implements MigrationInterface {
  name = 'WebhookAttempts1790371562000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_attempt" ("id" SERIAL NOT NULL, "delivery_id" integer NOT NULL, "attempt" integer NOT NULL, "status_code" integer, "error" text, "duration_ms" integer NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_webhook_attempt" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_webhook_attempt_delivery" ON "webhook_attempt" ("delivery_id", "attempted_at", "id")`);
    await queryRunner.query(`ALTER TABLE "webhook_attempt" ADD CONSTRAINT "fk_webhook_attempt_delivery" FOREIGN KEY ("delivery_id") REFERENCES "webhook_delivery"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(
      `INSERT INTO "webhook_attempt" ("delivery_id", "attempt", "status_code", "error", "duration_ms", "attempted_at")
       SELECT "id", greatest("attempt", 1), "last_status_code", "last_error", coalesce("last_duration_ms", 0), "last_attempt_at" FROM "webhook_delivery" WHERE "last_attempt_at" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_attempt"`);
  }
}
