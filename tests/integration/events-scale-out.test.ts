import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { makeSnapshot } from '../support/fixtures';
import { adminCli, type ServerProcess, startServerProcess, waitUntilReady } from '../support/processes';
import { LocalRedis } from '../support/redis-server';
import { createPostgresDatabase, usingPostgres } from '../support/test-database';

jest.setTimeout(240_000);

/**
 * Two server processes on one PostgreSQL database and one Redis: a subscriber on one instance
 * receives the events of a replay run by the other, and the refresh never runs twice for one
 * day, data and model. PostgreSQL only (the embedded database is one process's).
 */
const onPostgres = usingPostgres() ? describe : describe.skip;

onPostgres('two instances on PostgreSQL and Redis', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bp-scale-out-'));
  let redis: LocalRedis;
  let drop: () => Promise<void>;
  let databaseUrl: string;
  const servers: ServerProcess[] = [];
  const env = (name: string) => ({ DATABASE_URL: databaseUrl, REDIS_URL: redis.url, DATA_DIR: path.join(scratch, name), BILLS_SNAPSHOT: makeSnapshot([2900, 3089, 2806]) });

  beforeAll(async () => {
    redis = await LocalRedis.start();
    ({ url: databaseUrl, drop } = await createPostgresDatabase());
    servers.push(await startServerProcess(env('a')));
    await waitUntilReady(servers[0].url, 180_000);
    servers.push(await startServerProcess(env('b')));
    await waitUntilReady(servers[1].url, 180_000);
  });

  afterAll(async () => {
    for (const s of servers) await s.stop();
    await redis?.stop();
    await drop?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a subscriber on one instance receives the events a replay on the other emits, each once, and each day is refreshed once', async () => {
    const a = env('a');
    expect((await adminCli(['create-user', '--email', 'watcher@example.com', '--tier', 'pro'], a)).code).toBe(0);
    const key = (await adminCli(['create-key', '--email', 'watcher@example.com'], a)).json.api_key as string;
    const created = await fetch(`${servers[1].url}/api/v1/dashboard/watchlists`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'marriage age', bill_ids: [2900] }),
    });
    expect(created.status).toBe(200);

    const received: string[] = [];
    const client = createClient({ url: `${servers[1].url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
    const subscribed = new Promise<void>((resolve) => client.on('connected', () => setTimeout(resolve, 500)));
    client.subscribe<{ events: { id: string } }>({ query: 'subscription { events(types: ["bill.stage_changed"]) { id } }' }, { next: (r) => r.data && received.push(r.data.events.id), error: () => undefined, complete: () => undefined });
    await subscribed;

    const replayed = await adminCli(['replay', '--from', '2021-11-15', '--to', '2021-11-20'], a);
    expect(replayed.code).toBe(0);
    expect(replayed.json.days).toBe(6);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      // 19 November 2021: the bill's second reading, emitted once, by instance a, received on instance b
      const rows = (await db.query(`SELECT id FROM service_event WHERE type = 'bill.stage_changed' AND bill_id = 2900 AND service_day = '2021-11-19'`)).rows as { id: string }[];
      expect(rows).toHaveLength(1);
      const deadline = Date.now() + 10_000;
      while (!received.includes(rows[0].id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(received).toEqual([rows[0].id]);
      // no snapshot twice for a bill and day: the instances never both refreshed one day
      const doubled = (await db.query(`SELECT bill_id, reference_date, count(*) FROM prediction_snapshot GROUP BY 1, 2 HAVING count(*) > 1`)).rows;
      expect(doubled).toEqual([]);
    } finally {
      await db.end();
      await client.dispose();
    }
    // both started on the snapshot's day; its refresh ran on one of them only
    const firstDay = servers.flatMap((s) => s.logs.filter((l) => l.msg === 'events refresh' && l.serviceDay === '2021-12-31'));
    expect(firstDay).toHaveLength(1);
  });
});
