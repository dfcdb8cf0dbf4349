import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import autocannon from 'autocannon';
import { readAdminEndpointFile } from '../src/admin/door/admin-endpoint-file';

/** The processes and load runs of the HTTP benchmark (`npm run bench`), apart from its scenarios. */

/** A port nothing listens on now, for a child process to take. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export function startProcess(script: string, env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  // stdout to /dev/null: the server still formats every request log line, as in production
  return spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export const waitReady = (url: string, child: ChildProcess): Promise<void> => waitFor(child, url, async () => (await fetch(url).catch(() => null))?.status === 200);

/** Polls `check` every 250 ms until it holds; fails as soon as `child`, the process serving `what`, exits. */
export async function waitFor(child: ChildProcess, what: string, check: () => Promise<boolean>): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process serving ${what} exited (${child.exitCode})`);
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A command of the running server's admin endpoint (the one `npm run admin` uses). */
export async function admin(dataDir: string, command: string, args: object): Promise<Record<string, string>> {
  const endpoint = readAdminEndpointFile(dataDir)!;
  const res = await fetch(`${endpoint.url}/admin/commands/${command}`, { method: 'POST', headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json' }, body: JSON.stringify(args) });
  if (!res.ok) throw new Error(`admin ${command} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

/** Resident memory of a process in MB, read from /proc (Linux). */
export function rssMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) a process has used, in ms, read from /proc (Linux); null elsewhere.
 * With `thread` (a thread id; the process's own id is its main thread, the event loop's), that thread's alone.
 */
export function cpuMs(pid: number, thread?: number): number | null {
  try {
    const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
  } catch {
    return null;
  }
}

export interface LoadRequest {
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
}

export interface Load {
  /** origin, e.g. http://127.0.0.1:1234 */
  origin: string;
  /** cycled in order on each connection */
  requests: LoadRequest[];
  connections: number;
  seconds: number;
  /** API keys sent in rotation, one per request, or made up for each request; none for the ceilings */
  keys?: string[] | (() => string);
  /** ends the run early when it settles (`seconds` is then a limit) */
  until?: Promise<unknown>;
}

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  /** the slowest request, ms */
  max: number;
  /**
   * the slowest request once its connection was open (each connection's first request left out):
   * the first one also waits for the connection to be accepted, which 200 connections opened at
   * once by a load generator on the same cores make a matter of the machine, not of the server
   */
  maxOnOpenConnections: number;
  /** the slowest of each connection's first requests, ms */
  maxFirstRequest: number;
  /** requests slower than 1 s */
  overOneSecond: number;
  requests: number;
  /** socket errors, timeouts and answers other than 2xx */
  errors: number;
  /** what the errors were */
  errorKinds: string;
}

export async function runLoad(load: Load): Promise<LoadFigures> {
  const keys = load.keys ?? [];
  let next = 0;
  const nextKey = typeof keys === 'function' ? keys : keys.length ? () => keys[next++ % keys.length] : null;
  let finished!: (result: autocannon.Result) => void;
  let failed!: (error: Error) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const run = autocannon({
    url: load.origin,
    connections: load.connections,
    duration: load.seconds,
    // a request slower than this is an error, not a figure
    timeout: 10,
    requests: load.requests.map((request) => ({
      method: request.method ?? 'GET',
      path: request.path,
      body: request.body,
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, 'content-type': 'application/json', ...(nextKey ? { authorization: `Bearer ${nextKey()}` } : {}) },
      }),
    })),
  }, (error, result) => (error ? failed(error) : finished(result)));
  void load.until?.finally(() => run.stop());
  const opened = new WeakSet<object>();
  let maxOnOpenConnections = 0;
  let maxFirstRequest = 0;
  let overOneSecond = 0;
  run.on('response', (client: object, _status: number, _bytes: number, ms: number) => {
    if (ms > 1000) overOneSecond += 1;
    if (opened.has(client)) maxOnOpenConnections = Math.max(maxOnOpenConnections, ms);
    else {
      opened.add(client);
      maxFirstRequest = Math.max(maxFirstRequest, ms);
    }
  });
  const result = await done;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    maxOnOpenConnections: Math.round(maxOnOpenConnections),
    maxFirstRequest: Math.round(maxFirstRequest),
    overOneSecond,
    requests: result.requests.total,
    // autocannon counts a timeout among its errors too
    errors: result.errors + result.non2xx,
    errorKinds: `${result.timeouts} timeouts, ${result.non2xx} non-2xx, ${result.errors - result.timeouts} other`,
  };
}
