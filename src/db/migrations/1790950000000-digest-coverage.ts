import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33, digests that follow a watchlist from slot to slot: each digest records the watchlists
 * it covered, and each setting when its digests were switched on, so a watchlist's next digest
 * starts where its last one ended, whatever slot either was at. Rows written before say neither:
 * a digest is taken to have covered the watchlists at its slot now, and a digest setting to have
 * been switched on when it was last written.
 */
export class DigestCoverage1790950000000 implements MigrationInterface {
  name = 'DigestCoverage1790950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mail_digest" ADD "watchlist_ids" integer array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "watchlist_notification" ADD "digests_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`UPDATE "watchlist_notification" SET "digests_since" = "updated_at" WHERE "email" IN ('daily', 'weekly')`);
    await queryRunner.query(
      `UPDATE "mail_digest" d SET "watchlist_ids" = ARRAY(
         SELECT n.watchlist_id FROM "watchlist_notification" n JOIN "watchlist" w ON w.id = n.watchlist_id
          WHERE w.account_id = d.account_id AND n.email IN ('daily', 'weekly')
            AND d.slot = CASE n.email WHEN 'daily' THEN 'daily ' || n.time ELSE 'weekly ' || n.day || ' ' || n.time END
          ORDER BY n.watchlist_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "watchlist_notification" DROP COLUMN "digests_since"`);
    await queryRunner.query(`ALTER TABLE "mail_digest" DROP COLUMN "watchlist_ids"`);
  }
}
