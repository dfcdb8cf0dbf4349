import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getIntrospectionQuery } from 'graphql';
import { admin, freePort, rssMb, runLoad, startProcess, stopProcess, waitReady } from './bench-http-tools';

/**
 * `npm run bench` (hostile part): what requests built to exhaust the server do to everyone else.
 * 1. Unique documents: anonymous `serviceStatus` documents of 900 aliases and keyed `bill`
 *    documents of 290 aliases (small enough to be compiled, each sent twice, as compiling what
 *    repeats invites), every one new: the server's resident memory and its heap after a full
 *    collection, before and after, and once the server has been idle long enough for V8 to give
 *    back what the burst's garbage grew (goal: growth under 100 MB, and the server still answering).
 * 2. A keyed prediction's p99 at 10 connections while 30 anonymous introspection requests are in
 *    flight at all times: first 60 aliased `__schema` documents, then the standard introspection
 *    query (goal: under 100 ms).
 * The per-address limit of anonymous requests is off (ANON_RATE_LIMIT=0) and the burst limit high,
 * so what is measured is what the documents cost, not the limits that would refuse most of them.
 * BENCH_SERVER_SCRIPT names another build's server (to measure a change against the code before it),
 * BENCH_SERVER_ARGS its Node.js options (e.g. --max-old-space-size=512).
 */
const UNIQUE_DOCUMENTS = Number(process.env.BENCH_HOSTILE_DOCUMENTS ?? 10_000);
const INTROSPECTION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const IN_FLIGHT = 30;
const USERS = 20;
const SERVER_SCRIPT = process.env.BENCH_SERVER_SCRIPT ?? path.join(__dirname, '..', 'src', 'server.js');

const aliases = (prefix: string, count: number, field: string) => Array.from({ length: count }, (_, i) => `${prefix}x${i}: ${field}`).join(' ');
const anonymousDocument = (i: number) => `{ serviceStatus { ${aliases(`u${i}`, 900, 'today')} } }`;
const keyedDocument = (i: number) => `{ bill(id: 2900) { ${aliases(`k${i}`, 290, 'title')} } }`;
const SCHEMA_ALIASES = `{ ${Array.from({ length: 60 }, (_, i) => `s${i}: __schema { types { name kind description fields { name description args { name type { name } } type { name kind } } } }`).join(' ')} }`;

async function post(origin: string, query: string, key?: string): Promise<number> {
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Runs `send(i)` for i < count, `concurrency` at a time; the statuses seen, counted. */
async function inParallel(count: number, concurrency: number, send: (i: number) => Promise<number>): Promise<Map<number | string, number>> {
  const statuses = new Map<number | string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const status = await send(next++).catch((error: Error) => error.message);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

/** Keeps `count` requests of `query` in flight until `stop` settles. */
async function keepInFlight(origin: string, query: string, count: number, stop: Promise<unknown>): Promise<Map<number | string, number>> {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const statuses = new Map<number | string, number>();
  await Promise.all(
    Array.from({ length: count }, async () => {
      while (!stopped) {
        const status = await post(origin, query).catch((error: Error) => error.message);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

/** The server's V8 heap in use, in MB, from its metrics (served on the loopback interface without a token). */
async function heapUsedMb(origin: string): Promise<number | null> {
  const text = await (await fetch(`${origin}/metrics`).catch(() => null))?.text();
  const bytes = text && /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(text)?.[1];
  return bytes ? Number(bytes) / 2 ** 20 : null;
}

/**
 * The server's RSS once idle: V8 gives back the heap pages a burst of garbage grew only when its
 * memory reducer runs, some seconds after the requests stop, and in steps. Polled every 5 s, after
 * 30 s at least, until it has fallen by under 5 MB in 15 s (at most two minutes).
 */
async function settledRssMb(pid: number): Promise<{ mb: number; seconds: number }> {
  const started = Date.now();
  const readings: number[] = [];
  for (;;) {
    await new Promise((r) => setTimeout(r, 5_000));
    readings.push(rssMb(pid) ?? 0);
    const seconds = Math.round((Date.now() - started) / 1000);
    const fell = readings.length > 3 ? readings[readings.length - 4] - readings[readings.length - 1] : Infinity;
    if ((seconds >= 30 && fell < 5) || seconds >= 120) return { mb: readings[readings.length - 1], seconds };
  }
}

const counted = (statuses: Map<number | string, number>) => [...statuses].map(([status, n]) => `${n} × ${status}`).join(', ');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-bench-hostile-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  process.stdout.write(`Hostile-request benchmark: ${SERVER_SCRIPT}, first start on the snapshot\n`);
  const server = startProcess(SERVER_SCRIPT, {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    VINTAGE_TRAINING: 'off',
    ANON_RATE_LIMIT: '0',
    BURST_LIMIT: '100000',
  }, ['--expose-gc', '--require', path.join(__dirname, 'bench-gc-probe.js'), ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean)]);
  try {
    await waitReady(`${origin}/readyz`, server);
    const keys: string[] = [];
    for (let i = 0; i < USERS; i++) {
      await admin(dataDir, 'create-user', { email: `hostile${i}@example.com`, tier: 'pro' });
      keys.push((await admin(dataDir, 'create-key', { email: `hostile${i}@example.com` })).api_key);
    }
    for (let i = 0; i < 20; i++) await fetch(`${origin}/api/v1/predict/2900`, { headers: { authorization: `Bearer ${keys[0]}` } }).then((r) => r.arrayBuffer());

    server.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, 1_000));
    const before = rssMb(server.pid!)!;
    const heapBefore = await heapUsedMb(origin);
    let peak = before;
    const started = Date.now();
    const half = Math.floor(UNIQUE_DOCUMENTS / 2);
    const anonymous = await inParallel(half, 4, async (i) => {
      if (i % 500 === 0) peak = Math.max(peak, rssMb(server.pid!) ?? 0);
      return post(origin, anonymousDocument(i));
    });
    const keyed = await inParallel(2 * (UNIQUE_DOCUMENTS - half), 4, async (i) => {
      if (i % 500 === 0) peak = Math.max(peak, rssMb(server.pid!) ?? 0);
      return post(origin, keyedDocument(Math.floor(i / 2)), keys[i % USERS]);
    });
    const after = rssMb(server.pid!);
    const heapAfter = await heapUsedMb(origin);
    // the heap after a full collection is what the server keeps; the rest was garbage V8 had not collected yet
    server.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, 2_000));
    const collected = rssMb(server.pid!);
    const heapCollected = await heapUsedMb(origin);
    const alive = (await fetch(`${origin}/readyz`).catch(() => null))?.status === 200;
    const settled = alive ? await settledRssMb(server.pid!) : null;
    process.stdout.write(
      [
        `unique documents: ${UNIQUE_DOCUMENTS.toLocaleString('en-GB')} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
        `  anonymous (900 aliases, once each): ${counted(anonymous)}`,
        `  keyed (290 aliases, twice each): ${counted(keyed)}`,
        `  server RSS: ${before.toFixed(0)} MB before, peak ${Math.max(peak, after ?? 0).toFixed(0)} MB, ${after === null ? 'process gone' : `${after.toFixed(0)} MB after`} (growth ${after === null ? 'n/a' : `${(after - before).toFixed(0)} MB`}; goal under 100 MB)`,
        `  server heap in use: ${heapBefore?.toFixed(0) ?? '?'} MB before, ${heapAfter?.toFixed(0) ?? '?'} MB after`,
        `  after a full collection: heap in use ${heapCollected?.toFixed(0) ?? '?'} MB (kept: ${heapCollected === null || heapBefore === null ? 'n/a' : `${(heapCollected - heapBefore).toFixed(0)} MB`} more than before), RSS ${collected?.toFixed(0) ?? '?'} MB`,
        `  settled (idle until RSS stops falling, V8's memory reducer giving back the pages garbage grew): RSS ${settled === null ? 'n/a' : `${settled.mb.toFixed(0)} MB after ${settled.seconds} s idle (growth ${(settled.mb - before).toFixed(0)} MB; goal under 100 MB)`}`,
        `  still answering: ${alive ? 'yes' : 'NO'}`,
        '',
      ].join('\n'),
    );
    if (!alive) return;

    for (const [what, query] of [
      ['60 aliased __schema', SCHEMA_ALIASES],
      ['the standard introspection query', getIntrospectionQuery()],
    ] as const) {
      let stop!: () => void;
      const stopped = new Promise<void>((resolve) => (stop = resolve));
      const introspection = keepInFlight(origin, query, IN_FLIGHT, stopped);
      await new Promise((r) => setTimeout(r, 500));
      const load = await runLoad({ origin, requests: [{ path: '/api/v1/predict/2900' }], connections: 10, seconds: INTROSPECTION_SECONDS, keys });
      stop();
      const statuses = await introspection;
      process.stdout.write(
        `keyed GET /api/v1/predict/2900 at 10 connections beside ${IN_FLIGHT} anonymous requests of ${what} in flight: ${load.requests === 0 ? 'NOTHING SERVED, ' : ''}p99 ${load.p99} ms (p50 ${load.p50} ms, max ${load.max} ms, ${Math.round(load.rps)} req/s, ${load.errors} errors; goal p99 under 100 ms); introspection answers: ${counted(statuses)}\n`,
      );
    }
  } finally {
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
