import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase, type Database } from '../../src/db/database';

/** Which database the suite runs on: PGlite in memory, or PostgreSQL when TEST_DATABASE_URL is set (scripts/test.mjs runs both). */
export const usingPostgres = () => Boolean(process.env.TEST_DATABASE_URL);

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestDatabase extends Database {
  /** the PostgreSQL URL of this test's own database (undefined on PGlite) */
  url?: string;
}

/** An empty PostgreSQL database of its own (for a server process under test); `drop` removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A fresh, migrated database of its own for one test file; `close` drops it. */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (!usingPostgres()) return openDatabase({ dataDir: null });
  const { url, drop } = await createPostgresDatabase();
  const db = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 5 });
  return {
    ...db,
    url,
    close: async () => {
      await db.close();
      await drop();
    },
  };
}
