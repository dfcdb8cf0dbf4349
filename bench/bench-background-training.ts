import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { loadConfig } from '../src/config';
import { SnapshotSource } from '../src/ingest/snapshot.source';
import { sessionFactFromRecord } from '../src/services/training-data';
import { plannedVintages } from '../src/services/model-vintages';
import { admin, cpuMs, freePort, type LoadFigures, runLoad, startProcess, stopProcess, waitFor, waitReady } from './bench-http-tools';

/**
 * `npm run bench` (background training): what training session vintages in the background does to
 * serving. `GET /api/v1/predict/{id}` at 200 connections, keys rotating over many Pro users, in
 * three states of one data directory, each against the targets of issue 32 (p99 within 1.5× of
 * the steady state's, throughput at least 0.7× of it):
 * 2. right after a first start (ingest, the serving model trained), while the vintages train;
 * 3. after a restart on that directory stopped with some vintages stored and others not, while it
 *    trains the rest (what a deploy does to a server whose vintages were still training);
 * 1. the steady state: the same directory served with no training under way (a restart with
 *    vintage training off), or, with BENCH_STEADY=trained, once the restarted server has trained
 *    every vintage (minutes).
 * Beside each figure: the server's main-thread CPU per request (the event loop's share, which the
 * other processes on the machine change less than the wall time) and the load average.
 * BENCH_SECONDS: the measuring window (10 s); BENCH_SERVER_SCRIPT: another build's server (to
 * measure a change against the code before it); BENCH_SERVER_ARGS: its Node.js options (e.g.
 * "--cpu-prof --cpu-prof-dir=/tmp/profile").
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/**
 * Each state's first seconds of load, measured before its window and apart: a server just
 * started compiles its hot paths and opens 200 connections then, training or not; printed, not judged.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = 200;
// enough users that no key reaches the burst limit (300 calls of a field in 10 s) at 6,000 req/s
const USERS = Number(process.env.BENCH_USERS ?? 200);
const BILLS = [2900, 2950, 3000, 3050, 3080];
const STEADY = process.env.BENCH_STEADY === 'trained' ? 'trained' : 'restart';
const SERVER_SCRIPT = process.env.BENCH_SERVER_SCRIPT ?? path.join(__dirname, '..', 'src', 'server.js');
const nodeArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);

interface State {
  name: string;
  warmup: LoadFigures;
  figures: LoadFigures;
  mainThreadCpuUs: number | null;
  vintages: string;
  load: string;
}

const load = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');
const rate = (f: LoadFigures) => `${Math.round(f.rps).toLocaleString('en-GB')} req/s`;

/** Vintages stored, from the admin endpoint's `models` (the same listing `npm run admin -- models` prints). */
async function storedVintages(dataDir: string): Promise<number> {
  const listing = (await admin(dataDir, 'models', {})) as unknown as { versions: { vintage: unknown }[] };
  return listing.versions.filter((v) => v.vintage).length;
}

async function main(): Promise<void> {
  const { snapshotDir } = loadConfig();
  if (!snapshotDir) throw new Error('the background-training bench runs on a snapshot (BILLS_SNAPSHOT)');
  const source = new SnapshotSource(snapshotDir);
  const planned = plannedVintages((await source.sessions()).map(sessionFactFromRecord), await source.asOf()).length;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-bench-bgtrain-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const start = (env: Record<string, string> = {}) =>
    startProcess(SERVER_SCRIPT, { NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', VINTAGE_TRAINING: 'on', ...env }, nodeArgs);
  process.stdout.write(`Background-training benchmark: ${SERVER_SCRIPT} on ${snapshotDir} (${planned} session vintages to train); first start\n`);
  let server: ChildProcess = start();
  const states: State[] = [];
  const measure = async (name: string): Promise<void> => {
    const pid = server.pid!;
    const requests = BILLS.map((bill) => ({ path: `/api/v1/predict/${bill}` }));
    const warmup = await runLoad({ origin, requests, connections: CONNECTIONS, seconds: WARMUP_SECONDS, keys });
    const before = cpuMs(pid, pid);
    const figures = await runLoad({ origin, requests, connections: CONNECTIONS, seconds: SECONDS, keys });
    const after = cpuMs(pid, pid);
    const mainThreadCpuUs = before === null || after === null || !figures.requests ? null : (1000 * (after - before)) / figures.requests;
    states.push({ name, warmup, figures, mainThreadCpuUs, vintages: `${await storedVintages(dataDir)}/${planned} vintages stored after`, load: load() });
    process.stdout.write(`  measured: ${name} (${rate(figures)})\n`);
  };
  const keys: string[] = [];
  try {
    await waitReady(`${origin}/readyz`, server);
    for (let i = 0; i < USERS; i++) {
      await admin(dataDir, 'create-user', { email: `bgtrain${i}@example.com`, tier: 'pro' });
      keys.push((await admin(dataDir, 'create-key', { email: `bgtrain${i}@example.com` })).api_key);
    }
    const firstStored = await storedVintages(dataDir);
    if (firstStored >= planned) throw new Error('every vintage was trained before the first measurement: nothing trains in the background');
    await measure(`after a first start, vintages training (${firstStored}/${planned} stored before)`);

    // stopped with some vintages stored and some not: the restart trains the rest
    await waitFor(server, 'the first vintage', async () => (await storedVintages(dataDir)) >= Math.max(1, firstStored));
    await stopProcess(server);
    server = start();
    await waitReady(`${origin}/readyz`, server);
    const restartStored = await storedVintages(dataDir);
    if (restartStored >= planned) throw new Error('every vintage was trained before the restart: nothing is left to train (a faster machine: measure sooner)');
    await measure(`after a restart, vintages training (${restartStored}/${planned} stored before)`);

    if (STEADY === 'trained') {
      await waitFor(server, 'every vintage', async () => (await storedVintages(dataDir)) >= planned);
      await new Promise((r) => setTimeout(r, 2_000));
    } else {
      await stopProcess(server);
      server = start({ VINTAGE_TRAINING: 'off' });
      await waitReady(`${origin}/readyz`, server);
    }
    await measure(STEADY === 'trained' ? 'steady: every vintage trained' : 'steady: restarted with no training under way');
  } finally {
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }

  const steady = states[states.length - 1];
  process.stdout.write(`\nGET /api/v1/predict/{id} (${BILLS.length} bills), ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s of the same load; ${USERS} Pro users' keys in rotation\n`);
  for (const s of [steady, ...states.slice(0, -1)]) {
    const f = s.figures;
    const cpu = s.mainThreadCpuUs === null ? 'n/a' : `${Math.round(s.mainThreadCpuUs)} µs`;
    const line = `  ${s.name.padEnd(60)} ${rate(f).padStart(12)}  p50 ${f.p50} ms  p99 ${f.p99} ms  max ${f.max} ms  ${f.errors} errors  main-thread CPU/request ${cpu}  (${s.vintages}; load ${s.load})`;
    process.stdout.write(`${line}\n`);
    process.stdout.write(`      the ${WARMUP_SECONDS} s before (not judged): ${rate(s.warmup)}, p50 ${s.warmup.p50} ms, p99 ${s.warmup.p99} ms, max ${s.warmup.max} ms, ${s.warmup.errors} errors (${s.warmup.errorKinds})\n`);
    if (s === steady) continue;
    const p99Ratio = f.p99 / Math.max(1, steady.figures.p99);
    const rpsRatio = f.rps / steady.figures.rps;
    const met = f.requests > 0 && f.errors === 0 && p99Ratio <= 1.5 && rpsRatio >= 0.7;
    process.stdout.write(`    ${met ? 'PASS' : 'MISS'}  p99 ${p99Ratio.toFixed(2)}× steady [target ≤ 1.5×], throughput ${rpsRatio.toFixed(2)}× steady [target ≥ 0.7×]\n`);
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bench: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
