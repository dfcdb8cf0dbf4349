import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSnapshot } from '../support/fixtures';
import { adminCli, adminCliLoading, eventually, trainCli, type ServerProcess, startServerProcess, waitUntilReady } from '../support/processes';
import { createPostgresDatabase, usingPostgres } from '../support/test-database';
import { SESSION } from '../../web/src/operations';

// each test starts CLI processes (and one, servers) on a machine that may be busy
jest.setTimeout(120_000);

/** The admin CLI as an operator uses it beside a running server: help, keys, stats, deleting an account, backup and restore. */
let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;
let server: ServerProcess;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bp-admin-'));
const snapshot = makeSnapshot([26, 2900]);

beforeAll(async () => {
  env = { DATA_DIR: path.join(scratch, 'data'), BILLS_SNAPSHOT: snapshot };
  if (usingPostgres()) {
    const db = await createPostgresDatabase();
    env.DATABASE_URL = db.url;
    dropDatabase = db.drop;
  }
  server = await startServerProcess(env);
  await waitUntilReady(server.url);
});
afterAll(async () => {
  await server?.stop();
  await dropDatabase?.();
  rmSync(scratch, { recursive: true, force: true });
});

async function api(url: string, key: string, route: string, body?: object): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/api/v1${route}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

async function userWithKey(email: string): Promise<string> {
  expect((await adminCli(['create-user', '--email', email, '--tier', 'pro'], env)).code).toBe(0);
  return (await adminCli(['create-key', '--email', email], env)).json.api_key;
}

describe('help', () => {
  it('lists every command with --help, and explains one with <command> --help', async () => {
    const all = await adminCli(['--help'], env);
    expect(all.code).toBe(0);
    for (const command of ['create-user', 'create-key', 'set-tier', 'set-password', 'revoke-key', 'list-users', 'list-keys', 'delete-user', 'stats', 'backup', 'restore', 'announce-dissolution', 'list-dissolutions', 'remove-dissolution']) {
      expect(all.stdout).toContain(`\n  ${command}`);
    }
    const one = await adminCli(['create-key', '--help'], env);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^usage: npm run admin -- create-key --email E \[--name N\]\n.*shown this once/);
  });

  it('refuses an option the command does not take, naming it', async () => {
    const wrong = await adminCli(['list-users', '--email', 'ann@example.com'], env);
    expect(wrong.code).toBe(1);
    expect(wrong.json).toEqual({ error: 'list-users takes no --email' });
  });
});

// with DATABASE_URL there is no server to go through: the CLI opens PostgreSQL itself
(usingPostgres() ? it.skip : it)('answers through the running server without loading the database code or GraphQL', async () => {
  const listed = await adminCliLoading(['list-users'], env);
  expect(listed.code).toBe(0);
  expect(listed.json).toEqual({ users: expect.any(Array) });
  expect(['typeorm', '@electric-sql/pglite', 'pg', 'graphql', 'express'].filter((name) => listed.packages.has(name))).toEqual([]);
});

it("lists an account's keys with their dates, never a key or its hash", async () => {
  const first = await userWithKey('keys@example.com');
  const second = (await adminCli(['create-key', '--email', 'keys@example.com', '--name', 'laptop'], env)).json;
  await adminCli(['revoke-key', '--prefix', first.slice(0, 11)], env);
  expect((await api(server.url, second.api_key, '/predict/2900')).status).toBe(200);

  // a last use is written within a second (at once when the server itself lists the keys)
  const listed = await eventually(() => adminCli(['list-keys', '--email', 'KEYS@example.com'], env), (r) => r.json?.keys?.[1]?.last_used_at != null);
  expect(listed.code).toBe(0);
  expect(listed.json).toEqual({
    email: 'keys@example.com',
    keys: [
      { prefix: first.slice(0, 11), name: null, created_at: expect.any(String), last_used_at: null, revoked_at: expect.any(String) },
      { prefix: second.prefix, name: 'laptop', created_at: expect.any(String), last_used_at: expect.any(String), revoked_at: null },
    ],
  });
  expect(listed.stdout).not.toContain(second.api_key.slice(12));
  const unknown = await adminCli(['list-keys', '--email', 'nobody@example.com'], env);
  expect(unknown.code).toBe(1);
  expect(unknown.json.error).toMatch(/no account with email nobody@example.com/);
});

it('reports bills, users, keys, the model version and the last sync', async () => {
  const stats = await adminCli(['stats'], env);
  expect(stats.code).toBe(0);
  const users = (await adminCli(['list-users'], env)).json.users.length;
  expect(stats.json).toEqual({
    bills: 2,
    users,
    keys: { active: expect.any(Number), revoked: expect.any(Number) },
    model_version: { id: expect.any(Number), training_cutoff: '2021-12-31', created_at: expect.any(String) },
    last_sync: { source: `snapshot:${snapshot}`, completed_at: expect.any(String), as_of: '2021-12-31', bills_seen: 2, bills_changed: 2 },
  });
});

it('deletes an account with its keys and watchlists; the running server stops accepting its keys', async () => {
  const key = await userWithKey('leaving@example.com');
  const watchlist = await api(server.url, key, '/dashboard/watchlists', { name: 'mine', bill_ids: [2900] });
  expect(watchlist.status).toBeLessThan(300);
  expect((await api(server.url, key, '/dashboard/watchlists')).status).toBe(200);

  const deleted = await adminCli(['delete-user', '--email', 'leaving@example.com'], env);
  expect(deleted.code).toBe(0);
  expect(deleted.json).toEqual({ id: expect.any(Number), email: 'leaving@example.com', tier: 'pro', deleted: true, keys: 1, watchlists: 1 });
  expect((await eventually(() => api(server.url, key, '/dashboard/watchlists'), (r) => r.status === 401)).status).toBe(401);
  expect((await adminCli(['list-users'], env)).json.users.map((u: { email: string }) => u.email)).not.toContain('leaving@example.com');
  expect((await adminCli(['delete-user', '--email', 'leaving@example.com'], env)).json.error).toMatch(/no account/);
});

describe('announced dissolutions', () => {
  const readyz = async () => (await (await fetch(`${server.url}/readyz`)).json()) as { data: { dissolutions: { session_id: number; recorded_by: string }[] } };
  const recorded = (body: { data: { dissolutions: { session_id: number }[] } }) => body.data.dissolutions.map((d) => d.session_id);

  it('lists the snapshot’s, records an operator’s on a running server, shows it in /readyz, and removes it', async () => {
    const before = await adminCli(['list-dissolutions'], env);
    expect(before.code).toBe(0);
    // the snapshot's sessions ended by a dissolution: 2004-05, 2009-10, 2014-15, 2016-17, 2019
    expect(before.json.dissolutions.map((d: { session_id: number }) => d.session_id)).toEqual([18, 23, 27, 29, 34]);
    expect(before.json.dissolutions[3]).toEqual({ session_id: 29, name: '2016-17', announced: '2017-04-18', end_date: '2017-04-27', recorded_by: 'source', recorded_at: expect.any(String) });
    expect(recorded(await readyz())).toEqual([18, 23, 27, 29, 34]);

    const announced = await adminCli(['announce-dissolution', '--session', '36', '--announced', '2022-03-01', '--end', '2022-04-28'], env);
    expect(announced.code).toBe(0);
    expect(announced.json).toEqual({ session_id: 36, name: '2021-22', announced: '2022-03-01', end_date: '2022-04-28', recorded_by: 'operator', recorded_at: expect.any(String) });
    const shown = await eventually(readyz, (body) => recorded(body).includes(36));
    expect(shown.data.dissolutions.find((d) => d.session_id === 36)).toEqual({ session_id: 36, name: '2021-22', announced: '2022-03-01', end_date: '2022-04-28', recorded_by: 'operator', recorded_at: announced.json.recorded_at });

    const removed = await adminCli(['remove-dissolution', '--session', '36'], env);
    expect(removed.code).toBe(0);
    expect(removed.json).toEqual({ session_id: 36, removed: announced.json });
    expect(recorded(await eventually(readyz, (body) => !recorded(body).includes(36)))).toEqual([18, 23, 27, 29, 34]);
    expect((await adminCli(['remove-dissolution', '--session', '36'], env)).json).toEqual({ error: 'no dissolution is recorded for session 36' });
  });

  it('refuses a record it cannot read: an unknown session, a date that is not one, an end before the announcement', async () => {
    expect((await adminCli(['announce-dissolution', '--session', '99', '--announced', '2022-03-01', '--end', '2022-04-28'], env)).json.error).toMatch(/no session 99 is stored/);
    expect((await adminCli(['announce-dissolution', '--session', '36', '--announced', '2022-02-30', '--end', '2022-04-28'], env)).json).toEqual({ error: '--announced must be a date, YYYY-MM-DD' });
    expect((await adminCli(['announce-dissolution', '--session', '36', '--announced', '2022-03-01', '--end', '2022-02-01'], env)).json).toEqual({ error: '--end must be on or after --announced' });
    expect((await adminCli(['announce-dissolution', '--session', '29', '--announced', '2017-04-18', '--end', '2017-05-03'], env)).json).toEqual({ error: 'session 29 ended on 2017-04-27' });
    const help = await adminCli(['announce-dissolution', '--help'], env);
    expect(help.stdout).toMatch(/^usage: npm run admin -- announce-dissolution --session ID --announced YYYY-MM-DD --end YYYY-MM-DD\n/);
  });
});

describe('set-password', () => {
  const logIn = (email: string, password: string) =>
    fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation($input: Credentials!) { logIn(input: $input) { email } }', variables: { input: { email, password } } }),
    }).then(async (res) => ({ cookie: res.headers.get('set-cookie'), body: (await res.json()) as { data?: { logIn: { email: string } }; errors?: { message: string }[] } }));

  it('lets an admin-made account log in to the dashboard with the password read from stdin, ending its earlier sessions', async () => {
    const email = 'no-password@example.com';
    expect((await adminCli(['create-user', '--email', email, '--tier', 'pilot'], env)).code).toBe(0);
    expect((await logIn(email, 'a password set by the operator')).body.errors?.[0].message).toBe('Wrong email or password');

    const set = await adminCli(['set-password', '--email', email.toUpperCase()], env, 'a password set by the operator\n');
    expect(set.code).toBe(0);
    expect(set.json).toEqual({ id: expect.any(Number), email, tier: 'pilot', password_set: true, sessions_ended: 0 });
    const first = await logIn(email, 'a password set by the operator');
    expect(first.body.data).toEqual({ logIn: { email } });
    const cookie = /bp_session=[^;]+/.exec(first.cookie!)![0];

    const again = await adminCli(['set-password', '--email', email], env, 'another password entirely');
    expect(again.json).toMatchObject({ password_set: true, sessions_ended: 1 });
    // the dashboard's own question (a cookie runs only the dashboard's documents): no one is signed in
    const signedIn = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ query: SESSION }) });
    expect(((await signedIn.json()) as { data: { session: unknown } }).data.session).toBeNull();
    expect((await logIn(email, 'a password set by the operator')).body.errors?.[0].message).toBe('Wrong email or password');
    expect((await logIn(email, 'another password entirely')).body.data).toEqual({ logIn: { email } });
  });

  it('never takes the password from the command line, and refuses a short or missing one or an unknown account', async () => {
    const onArgv = await adminCli(['set-password', '--email', 'no-password@example.com', '--password', 'on the command line'], env, '');
    expect(onArgv.code).toBe(1);
    expect(onArgv.json.error).toMatch(/password/);
    expect((await adminCli(['set-password', '--email', 'no-password@example.com'], env, '')).json.error).toMatch(/reads the new password from stdin/);
    expect((await adminCli(['set-password', '--email', 'no-password@example.com'], env, 'short')).json.error).toBe('password must be between 10 and 200 characters');
    expect((await adminCli(['set-password', '--email', 'nobody@example.com'], env, 'long enough password')).json.error).toMatch(/no account/);
    const help = await adminCli(['set-password', '--help'], env);
    expect(help.stdout).toMatch(/^usage: npm run admin -- set-password --email E\n.*stdin/);
  });
});

(usingPostgres() ? it : it.skip)('on PostgreSQL, backup and restore send the operator to pg_dump and pg_restore', async () => {
  for (const args of [['backup', '--to', path.join(scratch, 'b.tgz')], ['restore', '--from', path.join(scratch, 'b.tgz')]]) {
    const result = await adminCli(args, env);
    expect(result.code).toBe(1);
    expect(result.json.error).toMatch(/with DATABASE_URL use pg_dump and pg_restore/);
  }
});

(usingPostgres() ? describe.skip : describe)('backup and restore of the embedded database', () => {
  let restored: ServerProcess | undefined;
  afterAll(async () => {
    await restored?.stop();
  });

  it('a backup taken while the server runs, restored on a fresh data directory, serves the same users, keys, watchlists and nowcasts', async () => {
    const key = await userWithKey('kept@example.com');
    const watchlist = (await api(server.url, key, '/dashboard/watchlists', { name: 'kept', bill_ids: [2900] })).body;
    const nowcast = await api(server.url, key, '/predict/2900?reference_date=2021-12-15');
    expect(nowcast.status).toBe(200);
    const users = (await adminCli(['list-users'], env)).json.users;

    const file = path.join(scratch, 'backup.tgz');
    const backup = await adminCli(['backup', '--to', file], env);
    expect(backup.code).toBe(0);
    expect(backup.json).toEqual({ backup: file, bytes: statSync(file).size, taken_at: expect.any(String) });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const refused = await adminCli(['restore', '--from', file], env);
    expect(refused.code).toBe(1);
    expect(refused.json.error).toMatch(new RegExp(`a server \\(process ${server.child.pid} .*\\) is using .*: stop it, then restore`));

    const freshEnv = { ...env, DATA_DIR: path.join(scratch, 'restored') };
    const restore = await adminCli(['restore', '--from', file], freshEnv);
    expect(restore.code).toBe(0);
    expect(restore.json).toMatchObject({ restored_from: file, previous_data: null, bills: 2, users: users.length });

    restored = await startServerProcess(freshEnv);
    await waitUntilReady(restored.url);
    expect(restored.logs.some((l) => l.msg === 'ingest started' || l.msg === 'training started')).toBe(false);
    expect((await adminCli(['list-users'], freshEnv)).json.users).toEqual(users);
    const lists = await api(restored.url, key, '/dashboard/watchlists');
    expect(lists.status).toBe(200);
    expect(lists.body.watchlists).toEqual([expect.objectContaining({ id: watchlist.id, name: 'kept', bill_count: 1 })]);
    expect(await api(restored.url, key, '/predict/2900?reference_date=2021-12-15')).toEqual(nowcast);
  });

  it('a restore over an existing database keeps the old one aside', async () => {
    await restored!.stop();
    const freshEnv = { ...env, DATA_DIR: path.join(scratch, 'restored') };
    const again = await adminCli(['restore', '--from', path.join(scratch, 'backup.tgz')], freshEnv);
    expect(again.code).toBe(0);
    expect(again.json.previous_data).toMatch(/restored\/pglite\.replaced-/);
    expect(statSync(again.json.previous_data).isDirectory()).toBe(true);
  });
});

describe('replay', () => {
  it('moves the running server through November and December 2021, a line of progress per day, and counts the events by type', async () => {
    const replayed = await adminCli(['replay', '--from', '2021-11-01', '--to', '2021-12-31'], env);
    expect(replayed.code).toBe(0);
    expect(replayed.json).toMatchObject({ from: '2021-11-01', to: '2021-12-31', days: 61, ms_per_day: expect.any(Number) });
    // the Marriage and Civil Partnership (Minimum Age) Bill's stage records first sitting in the period (bill 26 is from 2007)
    expect(replayed.json.events_by_type['bill.stage_changed']).toBe(2);
    const days = replayed.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line).day);
    expect(days).toHaveLength(61);
    expect(days[0]).toBe('2021-11-01');
    // the server now lives on the last replayed day, and its metrics count what it emitted
    const status = (await (await fetch(`${server.url}/api/v1/predict/2900`, { headers: { authorization: `Bearer ${await userWithKey('replay@example.com')}` } })).json()) as { reference_date: string };
    expect(status.reference_date).toBe('2021-12-31');
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/bill_progress_events_emitted_total\{type="bill\.stage_changed"\} [2-9]/);
    expect(metrics).toMatch(/bill_progress_event_refreshes_total [1-9]/);
  });

  it('refuses a period that ends before it starts, and a date that is not one', async () => {
    expect((await adminCli(['replay', '--from', '2021-12-01', '--to', '2021-11-01'], env)).json).toEqual({ error: '--to 2021-11-01 is before --from 2021-12-01' });
    expect((await adminCli(['replay', '--from', '2021-02-30', '--to', '2021-03-01'], env)).json).toEqual({ error: '--from must be a date, YYYY-MM-DD' });
  });
});

describe('models and promote', () => {
  it('lists the model versions and which one serves; promote switches the running server back to an earlier one', async () => {
    // the version the running server switched to last, by its log
    const servedVersion = async () => server.logs.filter((l) => l.msg === 'model version serving').at(-1)?.modelVersion;
    const trained = await trainCli(env);
    expect(trained.code).toBe(0);
    const listed = await adminCli(['models'], env);
    expect(listed.code).toBe(0);
    expect(listed.json.serving).toBe(trained.json.id);
    expect(listed.json.versions[0]).toMatchObject({ id: trained.json.id, status: 'accepted', serving: true, training_cutoff: '2021-12-31' });
    const earlier = listed.json.versions[1];
    expect(earlier).toMatchObject({ status: 'accepted', serving: false });
    expect(await eventually(servedVersion, (v) => v === trained.json.id)).toBe(trained.json.id);

    const promoted = await adminCli(['promote', String(earlier.id)], env);
    expect(promoted).toMatchObject({ code: 0, json: { serving: earlier.id, previous: trained.json.id } });
    expect(await eventually(servedVersion, (v) => v === earlier.id)).toBe(earlier.id);
    expect((await adminCli(['models'], env)).json.serving).toBe(earlier.id);

    expect(await adminCli(['promote'], env)).toMatchObject({ code: 1, json: { error: expect.stringMatching(/needs a model version/) } });
    expect(await adminCli(['promote', '99999'], env)).toMatchObject({ code: 1, json: { error: expect.stringMatching(/no model version 99999/) } });
  });
});
