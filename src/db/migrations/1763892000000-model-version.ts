import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Trained model versions. */
export class ModelVersion1763892000000 implements MigrationInterface {
  name = 'ModelVersion1763892000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "model_version" ("id" SERIAL NOT NULL, "feature_schema_version" integer NOT NULL, "training_cutoff" date NOT NULL, "data_fingerprint" text NOT NULL, "seed" integer NOT NULL, "artifact" jsonb NOT NULL, "metrics" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_model_version" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_model_version_schema" ON "model_version" ("feature_schema_version", "id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_model_version_schema"`);
    await queryRunner.query(`DROP TABLE "model_version"`);
  }
}
