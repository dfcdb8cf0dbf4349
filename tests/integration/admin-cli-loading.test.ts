import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminCliLoading } from '../support/processes';
import { createPostgresDatabase, usingPostgres } from '../support/test-database';

// CLI processes on a machine that may be busy
jest.setTimeout(120_000);

/**
 * An operator's account and key commands with no server running answer in about a second
 * (docs/admin.md): they open the database and load the accounts and keys code, not the
 * rest of the service. What else they load is what made them take three.
 */
let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bp-admin-loading-'));

beforeAll(async () => {
  env = { DATA_DIR: path.join(scratch, 'data') };
  if (usingPostgres()) {
    const db = await createPostgresDatabase();
    env.DATABASE_URL = db.url;
    dropDatabase = db.drop;
  }
});
afterAll(async () => {
  await dropDatabase?.();
  rmSync(scratch, { recursive: true, force: true });
});

/** Packages an account command has no use for: GraphQL, the web server, Redis, the model's networks. */
const NOT_FOR_ACCOUNTS = ['graphql', 'express', '@apollo/server', 'ioredis', 'brain.js', 'graphql-rate-limit', 'prom-client'];

/** Our own code an account command has no use for: the other services, the model, ingest, quotas and attempt limits, both doors. */
const REST_OF_THE_SERVICE = /^(src\/services\/(?!account|api-key)|src\/model\/(?!dates)|src\/ingest\/(?!snapshot-format-error)|src\/quota\/|src\/attempts\/|src\/gateway\/|src\/graphql\/|src\/doors\/rest\/)/;

it('creates and lists accounts loading the database and the accounts code only', async () => {
  const created = await adminCliLoading(['create-user', '--email', 'ops@example.com', '--tier', 'pilot'], env);
  expect(created.code).toBe(0);
  expect(created.json).toEqual({ id: expect.any(Number), email: 'ops@example.com', tier: 'pilot' });
  const listed = await adminCliLoading(['list-users'], env);
  expect(listed.json).toEqual({ users: [{ id: created.json.id, email: 'ops@example.com', tier: 'pilot' }] });

  for (const run of [created, listed]) {
    expect(NOT_FOR_ACCOUNTS.filter((name) => run.packages.has(name))).toEqual([]);
    expect([...run.files].filter((file) => REST_OF_THE_SERVICE.test(file))).toEqual([]);
    expect(run.packages.has(usingPostgres() ? 'pg' : '@electric-sql/pglite')).toBe(true);
  }
  // the embedded database needs no PostgreSQL client
  if (!usingPostgres()) expect(listed.packages.has('pg')).toBe(false);
});
