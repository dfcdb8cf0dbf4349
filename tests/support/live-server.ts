/**
 * The built server as its own process following a fake Bills API (the fixtures, which a test then
 * changes) every `intervalSeconds`, on a data directory of its own, or on a PostgreSQL database of
 * its own when the tests run on PostgreSQL: what the test files of live operation start once and
 * share. `server` is replaced when a test restarts it (`startServerProcess(live.env)`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeBillsApi } from './fixture-bills-api';
import { type ServerProcess, startServerProcess, waitUntilReady } from './processes';
import { createPostgresDatabase, usingPostgres } from './test-database';

export interface LiveServer {
  api: FakeBillsApi;
  /** the server's environment, for the admin CLI and restarts */
  env: Record<string, string>;
  server: ServerProcess;
  /** stops the server (unless a test killed it), the API, and removes the data */
  close(): Promise<void>;
}

/** Resolves once the server is ready (data synced and a model trained: up to two minutes on a busy machine). */
export async function startLiveServer(options: { today: string; intervalSeconds: number; env?: Record<string, string> }): Promise<LiveServer> {
  const api = new FakeBillsApi();
  await api.start();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-live-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, BILLS_SNAPSHOT: 'none', BILLS_API_URL: api.baseUrl, MEMBERS_API_URL: api.membersApiUrl, SYNC_INTERVAL: String(options.intervalSeconds), SERVICE_DATE: options.today, ...options.env };
  let dropDatabase: (() => Promise<void>) | undefined;
  if (usingPostgres()) {
    const db = await createPostgresDatabase();
    env.DATABASE_URL = db.url;
    dropDatabase = db.drop;
  }
  const live: LiveServer = {
    api,
    env,
    server: await startServerProcess(env),
    async close() {
      const { child } = live.server;
      if (child.exitCode === null && child.signalCode === null) await live.server.stop();
      await api.stop();
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await waitUntilReady(live.server.url, 120_000);
  return live;
}
