import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSnapshot } from '../support/fixtures';
import { type ServerProcess, startServerProcess } from '../support/processes';
import { spareTcpPort } from '../support/redis-server';
import { TcpProxy } from '../support/tcp-proxy';
import { createPostgresDatabase, usingPostgres } from '../support/test-database';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-db-outage-'));
let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const get = async (url: string) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
  return { status: res.status, body: (await res.json()) as Record<string, any>, requestId: res.headers.get('x-request-id') };
};

async function waitFor(check: () => Promise<boolean>, what: string, attempts = 600): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const unreachableLines = (s: ServerProcess) => s.logs.filter((l) => l.msg === 'PostgreSQL is unreachable; retrying');

describe('PostgreSQL refusing connections at start', () => {
  it('serves 503s naming PostgreSQL, logs it once without a stack, keeps retrying and stops cleanly on SIGTERM', async () => {
    const closedPort = await spareTcpPort();
    server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: `postgres://bp:secret-password@127.0.0.1:${closedPort}/bp` });

    const ready = await get(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ detail: 'Not ready: PostgreSQL is unreachable (ECONNREFUSED)' });
    expect(ready.requestId).toBeTruthy();
    expect((await get(`${server.url}/healthz`)).status).toBe(200);
    const api = await get(`${server.url}/api/v1/predict/2900`);
    expect(api.status).toBe(503);
    expect(api.body.detail).toMatch(/PostgreSQL is unreachable/);

    // several retries later: still one line for the one change of state
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // a few retries (0.5 s, 1 s, ...)
    expect(unreachableLines(server)).toHaveLength(1);
    expect(unreachableLines(server)[0].level).toBe(40);
    expect(JSON.stringify(server.logs)).not.toMatch(/"stack"|secret-password/);

    expect(await server.stop()).toBe(0);
  });
});

(usingPostgres() ? describe : describe.skip)('PostgreSQL coming and going (through a proxy that can be closed)', () => {
  it('starts once it is reachable, answers 503 while the connection is lost and recovers by itself', async () => {
    const database = await createPostgresDatabase();
    const target = new URL(database.url);
    const proxy = await TcpProxy.closed({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    try {
      server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: viaProxy.toString(), BILLS_SNAPSHOT: makeSnapshot([26, 27, 2900]) });
      expect((await get(`${server.url}/readyz`)).body.detail).toMatch(/PostgreSQL is unreachable/);

      await proxy.open();
      await waitFor(async () => (await get(`${server!.url}/readyz`)).status === 200, 'the first start to finish');
      expect(server.logs.filter((l) => l.msg === 'PostgreSQL is reachable again')).toHaveLength(1);

      await proxy.close();
      await waitFor(async () => /PostgreSQL is unreachable/.test((await get(`${server!.url}/readyz`)).body.detail ?? ''), '/readyz to name PostgreSQL');
      const during = await get(`${server.url}/graphql?query=%7BserviceStatus%7BbillCount%7D%7D`);
      expect(during.status).not.toBe(500);

      await proxy.open();
      await waitFor(async () => (await get(`${server!.url}/readyz`)).status === 200, '/readyz to recover');
      expect(unreachableLines(server)).toHaveLength(2);
    } finally {
      await server?.stop();
      server = undefined;
      await proxy.close();
      await database.drop();
    }
  });
});
