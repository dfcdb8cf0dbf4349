import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33, email alerts: each watchlist's email setting (off, instant, daily or weekly digest, the
 * event types), and the instant alerts held back by the 50-emails-a-day bound for a later digest.
 */
export class WatchlistNotifications1790850001000 implements MigrationInterface {
  name = 'WatchlistNotifications1790850001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "watchlist_notification" ("watchlist_id" integer NOT NULL, "email" text NOT NULL, "time" text NOT NULL, "day" text NOT NULL, "events" text array NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a2c434b020bc8a20463efaef108" PRIMARY KEY ("watchlist_id"))`);
    await queryRunner.query(`CREATE TABLE "mail_deferred_event" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "watchlist_id" integer NOT NULL, "event_id" text NOT NULL, "event_type" text NOT NULL, "bill_id" integer NOT NULL, "body" text NOT NULL, "digested_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ab11c30142faa847b190fc7a352" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_mail_deferred_event_account_event" ON "mail_deferred_event" ("account_id", "event_id")`);
    await queryRunner.query(`ALTER TABLE "watchlist_notification" ADD CONSTRAINT "fk_watchlist_notification_watchlist" FOREIGN KEY ("watchlist_id") REFERENCES "watchlist"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "mail_deferred_event" ADD CONSTRAINT "fk_mail_deferred_event_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mail_deferred_event" DROP CONSTRAINT "fk_mail_deferred_event_account"`);
    await queryRunner.query(`ALTER TABLE "watchlist_notification" DROP CONSTRAINT "fk_watchlist_notification_watchlist"`);
    await queryRunner.query(`DROP INDEX "public"."uq_mail_deferred_event_account_event"`);
    await queryRunner.query(`DROP TABLE "mail_deferred_event"`);
    await queryRunner.query(`DROP TABLE "watchlist_notification"`);
  }
}
