import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33: what a webhook endpoint's deliveries look like (`standard`, `slack`, `teams`), on the
 * endpoint and on each delivery: a delivery keeps the format its body was built in, which decides
 * whether it is signed. Endpoints and deliveries made before are standard.
 */
export class WebhookFormats1790800000000 implements MigrationInterface {
  name = 'WebhookFormats1790800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "format" text NOT NULL DEFAULT 'standard'`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD "format" text NOT NULL DEFAULT 'standard'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_delivery" DROP COLUMN "format"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "format"`);
  }
}
