import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 34, announced dissolutions: the day a session's end by a dissolution became known, and that
 * end, read from a snapshot's sessions or recorded by an operator for the live source. A database
 * stored before has none until its next sync from a snapshot (or the operator's record).
 */
export class SessionDissolutions1791000000000 implements MigrationInterface {
  name = 'SessionDissolutions1791000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "session_dissolution" ("session_id" integer NOT NULL, "announced" date NOT NULL, "end_date" date NOT NULL, "recorded_by" text NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_session_dissolution" PRIMARY KEY ("session_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "session_dissolution"`);
  }
}
