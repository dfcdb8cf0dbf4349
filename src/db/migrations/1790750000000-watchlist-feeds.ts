import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33: each watchlist's secret feed address (its token's hash and salt, never the token), the
 * calendar's event versions (SEQUENCE), and an index for a watchlist's newest events (its Atom feed).
 * Watchlists made before get their address the first time it is shown, since it is derived under
 * a key the database does not hold.
 */
export class WatchlistFeeds1790750000000 implements MigrationInterface {
  name = 'WatchlistFeeds1790750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "watchlist_feed" ("watchlist_id" integer NOT NULL, "salt" text, "token_hash" bytea, "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_watchlist_feed" PRIMARY KEY ("watchlist_id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_watchlist_feed_token" ON "watchlist_feed" ("token_hash") `);
    await queryRunner.query(
      `ALTER TABLE "watchlist_feed" ADD CONSTRAINT "fk_watchlist_feed_watchlist" FOREIGN KEY ("watchlist_id") REFERENCES "watchlist"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "calendar_event_version" ("watchlist_id" integer NOT NULL, "uid" text NOT NULL, "content_hash" text NOT NULL, "sequence" integer NOT NULL, "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_calendar_event_version" PRIMARY KEY ("watchlist_id", "uid"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "calendar_event_version" ADD CONSTRAINT "fk_calendar_event_version_watchlist" FOREIGN KEY ("watchlist_id") REFERENCES "watchlist"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`CREATE INDEX "idx_service_event_bill_occurred" ON "service_event" ("bill_id", "occurred_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_service_event_bill_occurred"`);
    await queryRunner.query(`DROP TABLE "calendar_event_version"`);
    await queryRunner.query(`DROP TABLE "watchlist_feed"`);
  }
}
