import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { admin, cpuMs, freePort, startProcess, stopProcess, waitReady } from './bench-http-tools';

/**
 * Issue #30's "Sign-up floods the password hasher": 100 SignUp mutations sent at once, and one
 * genuine LogIn sent while they are in flight; how long that log-in takes, what became of the
 * sign-ups, and the server's CPU time over the flood. Against the built server at the production
 * scrypt cost, in its own process, twice: the flood from one address (the per-address sign-up
 * limit answers it), then from 100 addresses (the password queue answers it; the server trusts
 * X-Forwarded-For for this, as behind a proxy). Figures only: the goal is a log-in under 1 s.
 */
const SIGN_UPS = Number(process.env.BENCH_SIGN_UPS ?? 100);
/** the log-in leaves this long after the flood, so that it arrives behind the sign-ups */
const LOG_IN_DELAY_MS = 100;
const PASSWORD = 'a long enough password';
const SIGN_UP = 'mutation SignUp($input: Credentials!) { signUp(input: $input) }';
const LOG_IN = 'mutation LogIn($input: Credentials!) { logIn(input: $input) { email } }';

interface Flood {
  logInMs: number;
  logInStatus: number;
  floodMs: number;
  cpuMs: number | null;
  statuses: Map<number, number>;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-bench-login-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  process.stdout.write(`Log-in during a sign-up flood: starting the built server (first start: ingest, then training)\n`);
  const server = startProcess(path.join(__dirname, '..', 'src', 'server.js'), { NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', VINTAGE_TRAINING: 'off', TRUST_PROXY: 'true' });
  try {
    await waitReady(`${base}/readyz`, server);
    await admin(dataDir, 'create-user', { email: 'genuine@example.com', tier: 'free' });
    await admin(dataDir, 'set-password', { email: 'genuine@example.com', password: PASSWORD });
    let run = 0;
    const graphql = async (query: string, input: object, address: string) => {
      const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address }, body: JSON.stringify({ query, variables: { input } }) });
      await res.arrayBuffer();
      return res.status;
    };
    const logIn = async () => {
      const started = performance.now();
      const status = await graphql(LOG_IN, { email: 'genuine@example.com', password: PASSWORD }, '192.0.2.1');
      return { status, ms: performance.now() - started };
    };
    const flood = async (addressOf: (i: number) => string): Promise<Flood> => {
      run += 1;
      const cpuBefore = cpuMs(server.pid!);
      const started = performance.now();
      const signUps = Array.from({ length: SIGN_UPS }, (_, i) => graphql(SIGN_UP, { email: `flood${run}-${i}@example.com`, password: PASSWORD }, addressOf(i)));
      await new Promise((r) => setTimeout(r, LOG_IN_DELAY_MS));
      const genuine = await logIn();
      const statuses = new Map<number, number>();
      for (const status of await Promise.all(signUps)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const cpuAfter = cpuMs(server.pid!);
      return { logInMs: genuine.ms, logInStatus: genuine.status, floodMs: performance.now() - started, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, statuses };
    };

    await logIn(); // warm: the first log-in compiles its path
    const atRest = await logIn();
    const figures = (name: string, f: Flood) => {
      const outcome = [...f.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${n}× ${status}`).join(', ');
      process.stdout.write(
        `  ${name}: genuine log-in ${Math.round(f.logInMs)} ms (${f.logInStatus}); sign-ups ${outcome} (200 accepted, 429 refused by the per-address limit, 503 by the password queue); flood over in ${(f.floodMs / 1000).toFixed(1)} s, server CPU ${f.cpuMs === null ? 'n/a' : `${(f.cpuMs / 1000).toFixed(1)} s`}\n`,
      );
    };
    process.stdout.write(`  at rest: genuine log-in ${Math.round(atRest.ms)} ms (${atRest.status})\n`);
    figures(`${SIGN_UPS} sign-ups from one address`, await flood(() => '203.0.113.7'));
    figures(`${SIGN_UPS} sign-ups from ${SIGN_UPS} addresses`, await flood((i) => `198.51.${Math.floor(i / 250)}.${i % 250}`));
    process.stdout.write(`  goal: the genuine log-in under 1 s during either flood\n`);
  } finally {
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
