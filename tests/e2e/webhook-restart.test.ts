import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSnapshot } from '../support/fixtures';
import { adminCli, type ServerProcess, startServerProcess } from '../support/processes';
import { createPostgresDatabase, usingPostgres } from '../support/test-database';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// Nothing is lost when the server is killed (SIGKILL) with deliveries pending or under way:
// after a restart they are sent, and each event reaches the receiver done once.

let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;
let server: ServerProcess | undefined;
let receiver: Receiver;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-webhook-restart-'));

beforeAll(async () => {
  env = { DATA_DIR: dataDir, BILLS_SNAPSHOT: makeSnapshot([26, 2900]), WEBHOOK_ALLOW_PRIVATE: 'true' };
  if (usingPostgres()) {
    const db = await createPostgresDatabase();
    env.DATABASE_URL = db.url;
    dropDatabase = db.drop;
  }
  receiver = await startReceiver('hang');
});
afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await server?.exited;
  await receiver.close();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

const rest = (method: string, urlPath: string, key: string, body?: unknown) =>
  fetch(`${server!.url}/api/v1${urlPath}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

it('sends after a restart what a killed server had pending or under way, each event done once', async () => {
  server = await startServerProcess(env);
  await adminCli(['create-user', '--email', 'hooks@example.com', '--tier', 'pilot'], env);
  const key = (await adminCli(['create-key', '--email', 'hooks@example.com'], env)).json.api_key as string;
  const created = await rest('POST', '/webhooks', key, { url: receiver.url, events: ['bill.stage_changed'] });
  expect(created.status).toBe(200);
  const id = created.body.id as number;
  const events: string[] = [];
  for (let i = 0; i < 6; i++) events.push((await rest('POST', `/webhooks/${id}/test`, key)).body.event_id);

  // the receiver holds the first attempts open: 4 under way (the per-endpoint limit), 2 still queued
  await receiver.receivedAtLeast(4);
  server.child.kill('SIGKILL');
  expect(await server.exited).toBe(137);
  const heldOpen = receiver.received.length;
  expect(heldOpen).toBe(4);

  receiver.next.length = 0;
  receiver.next.push(...Array(20).fill(200));
  server = await startServerProcess(env);
  await receiver.receivedAtLeast(heldOpen + events.length);
  // settle: nothing more arrives
  await new Promise((r) => setTimeout(r, 1_000));
  const answered = receiver.received.slice(heldOpen).map((r) => r.headers['webhook-id']);
  expect([...answered].sort()).toEqual([...events].sort());

  const deliveries = (await rest('GET', `/webhooks/${id}/deliveries`, key)).body.deliveries as { event_id: string; status: string; attempt: number }[];
  expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
  // the attempts cut short by the kill count as attempts: the one sent again is their retry
  expect(deliveries.map((d) => d.attempt).sort()).toEqual([1, 1, 2, 2, 2, 2]);
}, 120_000);
