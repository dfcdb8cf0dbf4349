import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes the retention job (src/jobs/retention.ts) walks, so that each of its bounded deletes
 * reads only the rows it removes instead of scanning a table that grows every day:
 * - deliveries by endpoint, newest first: the boundary of each endpoint's newest 100 (what its
 *   listing shows) and the older rows below it; the listing and `recover` read the same order;
 * - the event log by the time it was recorded;
 * - snapshots by bill and day, newest first: the boundary of each bill's newest snapshots (what
 *   the refresh compares with reads the same order);
 * - quota counters and website bill views by day.
 */
export class RetentionIndexes1764583200000 implements MigrationInterface {
  name = 'RetentionIndexes1764583200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "idx_webhook_delivery_endpoint_created" ON "webhook_delivery" ("endpoint_id", "created_at", "id")`);
    await queryRunner.query(`CREATE INDEX "idx_service_event_recorded" ON "service_event" ("recorded_at")`);
    await queryRunner.query(`CREATE INDEX "idx_prediction_snapshot_bill_date" ON "prediction_snapshot" ("bill_id", "reference_date", "id")`);
    await queryRunner.query(`CREATE INDEX "idx_quota_counter_day" ON "quota_counter" ("day")`);
    await queryRunner.query(`CREATE INDEX "idx_website_bill_view_day" ON "website_bill_view" ("day")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_website_bill_view_day"`);
    await queryRunner.query(`DROP INDEX "idx_quota_counter_day"`);
    await queryRunner.query(`DROP INDEX "idx_prediction_snapshot_bill_date"`);
    await queryRunner.query(`DROP INDEX "idx_service_event_recorded"`);
    await queryRunner.query(`DROP INDEX "idx_webhook_delivery_endpoint_created"`);
  }
}
