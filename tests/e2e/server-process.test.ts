import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSnapshot } from '../support/fixtures';
import { adminCli, eventually, graphqlOver, requestInFlight, type ServerProcess, startServerProcess, syncCli, waitUntilReady } from '../support/processes';
import { createPostgresDatabase, usingPostgres } from '../support/test-database';

/** The service as an operator runs it: a server process, the admin CLI and sync beside it, restarts. */
let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;
let server: ServerProcess | undefined;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-server-'));

beforeAll(async () => {
  env = { DATA_DIR: dataDir, BILLS_SNAPSHOT: makeSnapshot([26, 27, 2900]) };
  if (usingPostgres()) {
    const db = await createPostgresDatabase();
    env.DATABASE_URL = db.url;
    dropDatabase = db.drop;
  }
});
afterAll(async () => {
  await server?.stop();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

let key: string;

it('ingests the snapshot at first start before it declares itself ready', async () => {
  server = await startServerProcess(env);
  await waitUntilReady(server.url);
  expect(server.logs.some((l) => l.msg === 'ingest finished' && l.billsChanged === 3)).toBe(true);
  // one day from the first line on: the snapshot's, not the real date until the ingest ends
  expect(server.logs.find((l) => l.msg === 'listening')).toMatchObject({ today: '2021-12-31' });
  // the readiness polls of a start (waitUntilReady's, a supervisor's) are not logged at info
  expect(server.logs.filter((l) => (l.req as { path?: string } | undefined)?.path === '/readyz')).toEqual([]);
  const status = await graphqlOver(server.url, '{ serviceStatus { billCount today ready } }');
  expect(status.body.data.serviceStatus).toEqual({ billCount: 3, today: '2021-12-31', ready: true });
});

it('creates users and keys with the admin CLI while the server runs', async () => {
  const user = await adminCli(['create-user', '--email', 'ann@example.com', '--tier', 'pilot'], env);
  expect(user.code).toBe(0);
  expect(user.json).toEqual({ id: expect.any(Number), email: 'ann@example.com', tier: 'pilot' });
  const created = await adminCli(['create-key', '--email', 'ann@example.com', '--name', 'ci'], env);
  expect(created.json).toEqual({ api_key: expect.stringMatching(/^bp_[0-9a-f]{8}_/), prefix: expect.stringMatching(/^bp_[0-9a-f]{8}$/), id: expect.any(Number) });
  key = created.json.api_key;
  const bill = await graphqlOver(server!.url, '{ bill(id: 2900) { title stages { stage house date } } }', key);
  expect(bill.status).toBe(200);
  expect(bill.body.data.bill.title).toBe('Marriage and Civil Partnership (Minimum Age) Bill');
});

it('refuses a key to a Free user with exit code 1 and a clear message', async () => {
  await adminCli(['create-user', '--email', 'fred@example.com', '--tier', 'free'], env);
  const refused = await adminCli(['create-key', '--email', 'fred@example.com'], env);
  expect(refused.code).toBe(1);
  expect(refused.json.error).toMatch(/free tier: API keys need the pilot tier or above/);
  const duplicate = await adminCli(['create-user', '--email', 'ANN@example.com', '--tier', 'pro'], env);
  expect(duplicate.code).toBe(1);
  expect(duplicate.json.error).toMatch(/already exists/);
  const badTier = await adminCli(['set-tier', '--email', 'ann@example.com', '--tier', 'gold'], env);
  expect(badTier.json.error).toMatch(/tier must be one of free, pilot, pro/);
});

it('changes tiers with effect on the running server, and lists users', async () => {
  expect((await adminCli(['set-tier', '--email', 'ann@example.com', '--tier', 'free'], env)).json.tier).toBe('free');
  expect((await eventually(() => graphqlOver(server!.url, '{ me { tier } }', key), (r) => r.status === 403)).status).toBe(403);
  expect((await adminCli(['set-tier', '--email', 'ann@example.com', '--tier', 'pro'], env)).json.tier).toBe('pro');
  expect((await eventually(() => graphqlOver(server!.url, '{ me { tier } }', key), (r) => r.status === 200)).body.data.me.tier).toBe('PRO');
  const list = await adminCli(['list-users'], env);
  expect(list.json.users.map((u: { email: string }) => u.email)).toEqual(['ann@example.com', 'fred@example.com']);
});

it('syncs a newer snapshot into the running server without a restart', async () => {
  const result = await syncCli(['--snapshot', makeSnapshot([26, 27, 2900, 2901])], env);
  expect(result.code).toBe(0);
  expect(result.json).toMatchObject({ billsSeen: 4, billsChanged: 1 });
  const bill = await graphqlOver(server!.url, '{ bill(id: 2901) { id } }', key);
  expect(bill.body.data.bill).toEqual({ id: 2901 });
});

it('reports a snapshot the server cannot read to the operator, and keeps serving', async () => {
  const result = await syncCli(['--snapshot', path.join(dataDir, 'no-such-snapshot')], env);
  expect(result.code).toBe(1);
  expect(result.json.error).toMatch(/no-such-snapshot.*(ENOENT|no such file)/);
  expect((await fetch(`${server!.url}/readyz`)).status).toBe(200);
});

(usingPostgres() ? it.skip : it)('refuses a second server on the same data directory', async () => {
  await expect(startServerProcess(env)).rejects.toThrow(/in use by process \d+/);
});

it('stops cleanly on SIGTERM, releasing the data directory', async () => {
  expect(await server!.stop()).toBe(0);
  expect(server!.logs.at(-1)).toMatchObject({ msg: 'stopped' });
  expect(existsSync(path.join(dataDir, 'bill-progress.lock'))).toBe(false);
  expect(existsSync(path.join(dataDir, 'admin-endpoint.json'))).toBe(false);
  const direct = await adminCli(['list-users'], env);
  expect(direct.code).toBe(0);
  expect(direct.json.users).toHaveLength(2);
});

it('keeps users, keys and data across a restart, without ingesting again', async () => {
  server = await startServerProcess(env);
  await waitUntilReady(server.url);
  expect(server.logs.some((l) => l.msg === 'ingest started')).toBe(false);
  const bill = await graphqlOver(server.url, '{ bill(id: 2901) { id } me { email } }', key);
  expect(bill.body.data).toEqual({ bill: { id: 2901 }, me: { email: 'ann@example.com' } });
  const revoked = await adminCli(['revoke-key', '--prefix', key.slice(0, 11)], env);
  expect(revoked.json).toMatchObject({ prefix: key.slice(0, 11), revoked_at: expect.any(String) });
  expect((await eventually(() => graphqlOver(server!.url, '{ me { email } }', key), (r) => r.status === 401)).status).toBe(401);
});

describe('a first start whose ingest fails', () => {
  let broken: ServerProcess | undefined;
  let brokenEnv: Record<string, string>;
  let dropBroken: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await broken?.stop();
    await dropBroken?.();
    if (brokenEnv) rmSync(brokenEnv.DATA_DIR, { recursive: true, force: true });
  });

  it('stays unready without showing file paths, until a sync succeeds', async () => {
    const badSnapshot = makeSnapshot([26]);
    writeFileSync(path.join(badSnapshot, 'bills.jsonl'), '{"billId": "not a number"}\n');
    brokenEnv = { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bp-server-')), BILLS_SNAPSHOT: badSnapshot };
    if (usingPostgres()) {
      const db = await createPostgresDatabase();
      brokenEnv.DATABASE_URL = db.url;
      dropBroken = db.drop;
    }
    broken = await startServerProcess(brokenEnv);
    let ready: Response;
    for (;;) {
      ready = await fetch(`${broken.url}/readyz`);
      const body = (await ready.clone().json()) as { detail?: string };
      if (/failed/.test(body.detail ?? '')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(ready.status).toBe(503);
    const detail = ((await ready.json()) as { detail: string }).detail;
    expect(detail).toMatch(/bill data failed to load/);
    expect(detail).not.toContain(badSnapshot);

    const fixed = await syncCli(['--snapshot', makeSnapshot([26, 27])], brokenEnv);
    expect(fixed.json).toMatchObject({ billsChanged: 2 });
    await waitUntilReady(broken.url, 10_000);
  });
});

describe('stopping on a signal', () => {
  // several server processes each: the machine running the suite may be busy
  jest.setTimeout(120_000);
  let stopEnv: Record<string, string>;
  let dropStopDb: (() => Promise<void>) | undefined;
  const running: ServerProcess[] = [];
  const started = async (options?: { viaNpm?: boolean }) => {
    const process = await startServerProcess(stopEnv, options);
    running.push(process);
    return process;
  };
  const lockFile = () => path.join(stopEnv.DATA_DIR, 'bill-progress.lock');
  const serviceStatus = '{ serviceStatus { billCount } }';

  beforeAll(async () => {
    stopEnv = { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bp-server-')), BILLS_SNAPSHOT: makeSnapshot([26, 2900]) };
    if (usingPostgres()) {
      const db = await createPostgresDatabase();
      stopEnv.DATABASE_URL = db.url;
      dropStopDb = db.drop;
    }
  });
  afterAll(async () => {
    for (const p of running) await p.stop();
    await dropStopDb?.();
    rmSync(stopEnv.DATA_DIR, { recursive: true, force: true });
  });

  it('npm start: SIGTERM to the npm process stops the server, and the next server opens the same data directory', async () => {
    const first = await started({ viaNpm: true });
    // the data is in; the model is still training, and the shutdown stops that too
    await first.logged('ingest finished');
    process.kill(first.child.pid!, 'SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.logs.at(-1)).toMatchObject({ msg: 'stopped' });
    if (!usingPostgres()) expect(existsSync(lockFile())).toBe(false);

    const second = await started();
    expect((await graphqlOver(second.url, serviceStatus)).body.data.serviceStatus.billCount).toBe(2);
    expect(await second.stop()).toBe(0);
  });

  it('Ctrl-C on npm start (SIGINT to the process group, echoed by npm) shuts down once, finishing the request in flight', async () => {
    const server = await started({ viaNpm: true });
    const pending = await requestInFlight(server.url, serviceStatus);
    process.kill(-server.child.pid!, 'SIGINT');
    await server.logged('shutting down');
    const answer = await pending.finish();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data.serviceStatus.billCount).toBe(2);
    expect(await server.exited).toBe(0);
    expect(server.logs.filter((l) => l.msg === 'signal received')).toHaveLength(1);
    expect(server.logs.at(-1)).toMatchObject({ msg: 'stopped' });
  });

  it('node directly: SIGTERM finishes the request in flight, flushes and closes, then exits 0', async () => {
    const server = await started();
    const pending = await requestInFlight(server.url, serviceStatus);
    server.child.kill('SIGTERM');
    await server.logged('shutting down');
    expect((await pending.finish()).status).toBe(200);
    expect(await server.exited).toBe(0);
    expect(server.logs.at(-1)).toMatchObject({ msg: 'stopped' });
    if (!usingPostgres()) expect(existsSync(lockFile())).toBe(false);
  });

  it('a second signal exits at once, without waiting for the request in flight, and still frees the data directory', async () => {
    const server = await started();
    // the first start trains after it listens: a training stopped by the shutdown would log after the exit began
    await server.logged('model version serving');
    await requestInFlight(server.url, serviceStatus);
    server.child.kill('SIGTERM');
    await server.logged('shutting down');
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(130);
    expect(server.logs.some((l) => l.msg === 'stopped')).toBe(false);
    expect(server.logs.at(-1)).toMatchObject({ msg: 'second signal: exiting without finishing the shutdown', signal: 'SIGINT' });
    if (!usingPostgres()) expect(existsSync(lockFile())).toBe(false);
    const next = await started();
    expect(await next.stop()).toBe(0);
  });
});
