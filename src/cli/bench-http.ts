import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import autocannon from 'autocannon';
import { readAdminEndpointFile } from '../admin/admin-endpoint-file';

/**
 * `npm run bench` (HTTP part): starts the server on the snapshot in its own process, and a bare
 * express route as the machine's ceiling in another, then drives both with autocannon from this
 * process. Keys rotate over 100 Pro users, so quotas and the burst limit stay on as in production.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const USERS = 100;

/** A port nothing listens on now, for a child process to take. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function startProcess(script: string, env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  // stdout to /dev/null: the server still formats every request log line, as in production
  return spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function waitReady(url: string, path = '/readyz'): Promise<void> {
  for (;;) {
    const res = await fetch(`${url}${path}`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function admin(dataDir: string, command: string, args: object): Promise<Record<string, string>> {
  const endpoint = readAdminEndpointFile(dataDir)!;
  const res = await fetch(`${endpoint.url}/admin/commands/${command}`, { method: 'POST', headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json' }, body: JSON.stringify(args) });
  return (await res.json()) as Record<string, string>;
}

interface Scenario {
  name: string;
  connections: number;
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  authorized: boolean;
}

interface Figures {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function run(scenario: Scenario, keys: string[]): Promise<Figures> {
  let next = 0;
  const result = await autocannon({
    url: scenario.url,
    connections: scenario.connections,
    duration: SECONDS,
    requests: [
      {
        method: scenario.method ?? 'GET',
        body: scenario.body,
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'content-type': 'application/json', ...(scenario.authorized ? { authorization: `Bearer ${keys[next++ % keys.length]}` } : {}) },
        }),
      },
    ],
  });
  return {
    name: scenario.name,
    connections: scenario.connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const TARGETS: Record<string, string> = {
  'GET /api/v1/predict/{id} (warm)@50': 'at least 40% of the ceiling’s requests/s',
  'GET /api/v1/predict/{id} (warm)@10': 'p99 under 20 ms',
  'POST /api/v1/predictions/batch (100 bills)@10': 'p50 under 30 ms',
  'GET /api/v1/predictions/imminent@10': 'p50 under 20 ms',
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-bench-'));
  const [serverPort, ceilingPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${serverPort}`;
  process.stdout.write('HTTP benchmark: starting the server on the snapshot (first start: ingest, then training) and the ceiling server\n');
  const server = startProcess(
    path.join(__dirname, '..', 'server.js'),
    { NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(serverPort), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    // e.g. BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/profile" to profile the server under load
    (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
  );
  const ceiling = startProcess(path.join(__dirname, 'bench-ceiling-server.js'), { CEILING_PORT: String(ceilingPort) });
  try {
    await waitReady(base);
    await waitReady(`http://127.0.0.1:${ceilingPort}`, '/ceiling');
    const keys: string[] = [];
    for (let i = 0; i < USERS; i++) {
      await admin(dataDir, 'create-user', { email: `bench${i}@example.com`, tier: 'pro' });
      keys.push((await admin(dataDir, 'create-key', { email: `bench${i}@example.com` })).api_key);
    }
    const live = ((await (await fetch(`${base}/api/v1/predictions/imminent?days_ahead=30&min_probability=0`, { headers: { authorization: `Bearer ${keys[0]}` } })).json()) as { bills: { bill_id: number }[] }).bills.map((b) => b.bill_id);
    const batchIds = Array.from({ length: 100 }, (_, i) => live[i % live.length] ?? 2900);
    const gql = JSON.stringify({ query: '{ prediction(billId: 2900) { royalAssent nextStage30d timelineEtaDays stallRisk amendmentRisk closeVote withdrawalRisk riskIndicators { controversyScore momentumScore stallRiskLevel withdrawalRiskLevel } } }' });
    const scenarios: Scenario[] = [];
    for (const connections of [50, 10]) {
      scenarios.push({ name: 'ceiling: bare express, fixed JSON', connections, url: `http://127.0.0.1:${ceilingPort}/ceiling`, authorized: false });
      scenarios.push({ name: 'GET /api/v1/predict/{id} (warm)', connections, url: `${base}/api/v1/predict/2900`, authorized: true });
      scenarios.push({ name: 'POST /graphql prediction (warm)', connections, url: `${base}/graphql`, method: 'POST', body: gql, authorized: true });
    }
    scenarios.push({ name: 'POST /api/v1/predictions/batch (100 bills)', connections: 10, url: `${base}/api/v1/predictions/batch`, method: 'POST', body: JSON.stringify({ bill_ids: batchIds }), authorized: true });
    scenarios.push({ name: 'GET /api/v1/predictions/imminent', connections: 10, url: `${base}/api/v1/predictions/imminent`, authorized: true });

    // warm the caches the way clients do
    await run({ ...scenarios[1], connections: 1 }, keys);
    const figures: Figures[] = [];
    // BENCH_ONLY=batch runs the scenarios whose name contains it (and the ceilings)
    const only = process.env.BENCH_ONLY;
    for (const scenario of scenarios.filter((x) => !only || x.name.includes(only) || x.name.startsWith('ceiling'))) {
      figures.push(await run(scenario, keys));
      process.stdout.write('.');
    }
    process.stdout.write('\n');
    const ceilingAt = (c: number) => figures.find((f) => f.name.startsWith('ceiling') && f.connections === c)!.rps;
    process.stdout.write(`${'route'.padEnd(46)} ${'conns'.padStart(5)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(6)} ${'÷ceiling'.padStart(8)}  target\n`);
    for (const f of figures) {
      const ratio = figures.some((c) => c.name.startsWith('ceiling') && c.connections === f.connections) ? `${((100 * f.rps) / ceilingAt(f.connections)).toFixed(0)}%` : '';
      const target = TARGETS[`${f.name}@${f.connections}`] ?? '';
      process.stdout.write(`${f.name.padEnd(46)} ${String(f.connections).padStart(5)} ${f.rps.toFixed(0).padStart(9)} ${String(f.p50).padStart(7)} ${String(f.p99).padStart(7)} ${String(f.errors).padStart(6)} ${ratio.padStart(8)}  ${target}\n`);
    }
    process.stdout.write(`(${SECONDS} s per run; ${USERS} Pro users’ keys in rotation, so quotas and burst limits stay on)\n`);
  } finally {
    server.kill('SIGTERM');
    ceiling.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bench: ${error.message}\n`);
  process.exit(1);
});
