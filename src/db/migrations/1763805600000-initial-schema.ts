import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Bills, their stages, sponsors and divisions; accounts and API keys; sync state. */
export class InitialSchema1763805600000 implements MigrationInterface {
  name = 'InitialSchema1763805600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "account" ("id" SERIAL NOT NULL, "email" text NOT NULL, "tier" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_54115ee388cdb6d86bb4bf5b2ea" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_account_email" ON "account" ("email") `);
    await queryRunner.query(`CREATE TABLE "api_key" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "name" text, "prefix" text NOT NULL, "secret_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b1bd840641b8acbaad89c3d8d11" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_api_key_prefix" ON "api_key" ("prefix") `);
    await queryRunner.query(`CREATE INDEX "idx_api_key_account" ON "api_key" ("account_id") `);
    await queryRunner.query(`CREATE TABLE "bill" ("id" integer NOT NULL, "title" text NOT NULL, "long_title" text, "summary" text, "bill_type_id" integer NOT NULL, "bill_type" text NOT NULL, "category" text NOT NULL, "kind" text NOT NULL, "originating_house" text NOT NULL, "introduced_session_id" integer NOT NULL, "session_ids" integer array NOT NULL, "sponsor_organisations" text array NOT NULL, "lead_sponsor_party_in_government" boolean, "is_act" boolean NOT NULL, "withdrawn_date" date, "outcome" text NOT NULL, "introduced_date" date, "royal_assent_date" date, "stage_history" text NOT NULL, "missing_stage_count" integer NOT NULL, "source_updated_at" TIMESTAMP WITH TIME ZONE, "content_hash" text NOT NULL, "ingested_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_683b47912b8b30fe71d1fa22199" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_bill_originating_house" ON "bill" ("originating_house") `);
    await queryRunner.query(`CREATE INDEX "idx_bill_outcome" ON "bill" ("outcome") `);
    await queryRunner.query(`CREATE INDEX "idx_bill_session" ON "bill" ("introduced_session_id") `);
    await queryRunner.query(`CREATE INDEX "idx_bill_kind" ON "bill" ("kind") `);
    await queryRunner.query(`CREATE TABLE "bill_sponsor" ("id" SERIAL NOT NULL, "bill_id" integer NOT NULL, "position" integer NOT NULL, "member_id" integer, "name" text NOT NULL, "party_at_introduction" text, "house_at_introduction" text, CONSTRAINT "PK_7720d49ea4ff0734579bb69773a" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_bill_sponsor_bill" ON "bill_sponsor" ("bill_id", "position") `);
    await queryRunner.query(`CREATE TABLE "bill_stage" ("id" integer NOT NULL, "bill_id" integer NOT NULL, "seq" integer NOT NULL, "stage_id" integer NOT NULL, "stage" text NOT NULL, "description" text NOT NULL, "abbr" text, "house" text NOT NULL, "session_id" integer, "phase" text, "sitting_dates" date array NOT NULL, "dates_after_session_end" date array NOT NULL, "from_current_stage" boolean NOT NULL, CONSTRAINT "PK_220f28949ae23ba0b6f9a454467" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_bill_stage_bill" ON "bill_stage" ("bill_id", "seq") `);
    await queryRunner.query(`CREATE TABLE "division" ("id" SERIAL NOT NULL, "bill_id" integer NOT NULL, "house" text NOT NULL, "date" date NOT NULL, "number" integer NOT NULL, "title" text NOT NULL, "ayes" integer NOT NULL, "noes" integer NOT NULL, "stage" text, "bill_stage_id" integer, "source" text NOT NULL, CONSTRAINT "PK_b6f0d207e38106dbddabab3a078" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "idx_division_bill" ON "division" ("bill_id", "date") `);
    await queryRunner.query(`CREATE TABLE "parliamentary_session" ("id" integer NOT NULL, "name" text NOT NULL, "end_date" date, "first_sitting_date" date, "last_sitting_date" date, CONSTRAINT "PK_8c5e1257cce955f2aea983ecdeb" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "sync_state" ("source_kind" text NOT NULL, "source_name" text NOT NULL, "as_of" date, "cursor" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "bills_seen" integer NOT NULL, "bills_changed" integer NOT NULL, "data_fingerprint" text NOT NULL, CONSTRAINT "PK_9957cfdfa5ee564e2258332a6e8" PRIMARY KEY ("source_kind"))`);
    await queryRunner.query(`ALTER TABLE "api_key" ADD CONSTRAINT "fk_api_key_account" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "bill_sponsor" ADD CONSTRAINT "fk_bill_sponsor_bill" FOREIGN KEY ("bill_id") REFERENCES "bill"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "bill_stage" ADD CONSTRAINT "fk_bill_stage_bill" FOREIGN KEY ("bill_id") REFERENCES "bill"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "division" ADD CONSTRAINT "fk_division_bill" FOREIGN KEY ("bill_id") REFERENCES "bill"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "division" DROP CONSTRAINT "fk_division_bill"`);
    await queryRunner.query(`ALTER TABLE "bill_stage" DROP CONSTRAINT "fk_bill_stage_bill"`);
    await queryRunner.query(`ALTER TABLE "bill_sponsor" DROP CONSTRAINT "fk_bill_sponsor_bill"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP CONSTRAINT "fk_api_key_account"`);
    await queryRunner.query(`DROP TABLE "sync_state"`);
    await queryRunner.query(`DROP TABLE "parliamentary_session"`);
    await queryRunner.query(`DROP INDEX "public"."idx_division_bill"`);
    await queryRunner.query(`DROP TABLE "division"`);
    await queryRunner.query(`DROP INDEX "public"."idx_bill_stage_bill"`);
    await queryRunner.query(`DROP TABLE "bill_stage"`);
    await queryRunner.query(`DROP INDEX "public"."idx_bill_sponsor_bill"`);
    await queryRunner.query(`DROP TABLE "bill_sponsor"`);
    await queryRunner.query(`DROP INDEX "public"."idx_bill_kind"`);
    await queryRunner.query(`DROP INDEX "public"."idx_bill_session"`);
    await queryRunner.query(`DROP INDEX "public"."idx_bill_outcome"`);
    await queryRunner.query(`DROP INDEX "public"."idx_bill_originating_house"`);
    await queryRunner.query(`DROP TABLE "bill"`);
    await queryRunner.query(`DROP INDEX "public"."idx_api_key_account"`);
    await queryRunner.query(`DROP INDEX "public"."uq_api_key_prefix"`);
    await queryRunner.query(`DROP TABLE "api_key"`);
    await queryRunner.query(`DROP INDEX "public"."uq_account_email"`);
    await queryRunner.query(`DROP TABLE "account"`);
  }
}
