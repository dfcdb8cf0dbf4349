import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVER = path.join(ROOT, 'dist', 'src', 'server.js');
const ADMIN = path.join(ROOT, 'dist', 'src', 'admin', 'cli', 'admin.js');
const SYNC = path.join(ROOT, 'dist', 'src', 'cli', 'sync-command.js');
const TRAIN = path.join(ROOT, 'dist', 'src', 'cli', 'train-command.js');

export interface ServerProcess {
  /** the process started: node itself, or npm when started through `npm start` */
  child: ChildProcess;
  url: string;
  /** parsed JSON log lines so far */
  logs: Array<Record<string, unknown>>;
  /** resolves with the exit code, or 128 + the signal's number when a signal killed it (as a shell reports it) */
  exited: Promise<number | null>;
  /** sends SIGTERM and waits for the exit */
  stop(): Promise<number | null>;
  /** resolves with the first log line with this message (already written or still to come) */
  logged(msg: string): Promise<Record<string, unknown>>;
}

export interface StartOptions {
  /** `npm start` in the repository, as an operator runs it; node on the built server otherwise */
  viaNpm?: boolean;
}

// servers under test train no vintages in the background (minutes of CPU) unless a test asks
const baseEnv = (env: Record<string, string>) => ({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', VINTAGE_TRAINING: 'off', ...env });

// 'close', not 'exit': a child's last stdout lines can still be in the pipe when 'exit' fires
function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('close', (code, signal) => resolve(signal ? 128 + os.constants.signals[signal] : code)));
}

/**
 * The built server (`npm test` builds first) as its own process; resolves once it listens. Through
 * npm it runs in a process group of its own, so a test can send a signal to the group as a
 * terminal's Ctrl-C does.
 */
export function startServerProcess(env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  const child = options.viaNpm
    ? spawn('npm', ['start', '--silent'], { cwd: ROOT, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(process.execPath, [SERVER], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: Array<Record<string, unknown>> = [];
  const waiting: Array<{ msg: string; resolve: (entry: Record<string, unknown>) => void }> = [];
  let stderr = '';
  const exited = exitCode(child);
  const logged = (msg: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const seen = logs.find((l) => l.msg === msg);
      if (seen) resolve(seen);
      else waiting.push({ msg, resolve });
    });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue; // npm's own lines
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        for (const w of waiting.filter((w) => w.msg === entry.msg)) w.resolve(entry);
        if (entry.msg === 'listening') {
          resolve({
            child,
            url: `http://127.0.0.1:${entry.port}`,
            logs,
            exited,
            stop: () => (child.exitCode === null && child.signalCode === null ? (child.kill('SIGTERM'), exited) : exited),
            logged,
          });
        }
      }
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
}

/**
 * Starts a POST /graphql whose body is held back, so the server has a request in flight: it resolves
 * once the server has answered `100 Continue`, that is once it has read the headers and is handling
 * the request. `finish` sends the body and resolves with the final status and body.
 */
export async function requestInFlight(url: string, query: string): Promise<{ finish(): Promise<{ status: number; body: string }> }> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ query });
  const socket = net.connect(Number(port), hostname);
  let received = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk) => {
      received += chunk;
      if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) resolve();
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`the server closed the connection: ${JSON.stringify(received)}`)));
    socket.write(`POST /graphql HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
  });
  return {
    async finish() {
      // a server that is shutting down closes the connection once it has answered
      socket.write(body);
      await closed;
      const final = received.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(final)?.[1] ?? 0);
      return { status, body: final.slice(final.indexOf('\r\n\r\n') + 4) };
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** the JSON object on the last line of stdout */
  json: Record<string, any>;
}

function runNode(script: string, args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  const child = spawn(process.execPath, [script, ...args], { env: baseEnv(env), stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (input !== undefined) child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      let json: Record<string, any> = {};
      try {
        json = JSON.parse(last);
      } catch {
        // left empty: the assertion on json will say what was printed
      }
      resolve({ code, stdout, stderr, json });
    }),
  );
}

/** `input`: what the command reads on stdin (none when absent) */
export const adminCli = (args: string[], env: Record<string, string>, input?: string) => runNode(ADMIN, args, env, input);

/**
 * The admin CLI run as adminCli does, and what it loaded: the packages (by name) and our own built
 * files (by path from the repository root) in node's module cache when the process exited.
 */
export async function adminCliLoading(args: string[], env: Record<string, string>): Promise<CliResult & { packages: Set<string>; files: Set<string> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-modules-'));
  try {
    const hook = path.join(dir, 'record-modules.cjs');
    const record = path.join(dir, 'modules.json');
    writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(Object.keys(require.cache))));\n`);
    const result = await runNode(ADMIN, args, { ...env, NODE_OPTIONS: `--require ${hook}` });
    const loaded = JSON.parse(readFileSync(record, 'utf8')) as string[];
    const packages = new Set(loaded.flatMap((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? []));
    const files = new Set(loaded.filter((file) => file.startsWith(path.join(ROOT, 'dist'))).map((file) => path.relative(path.join(ROOT, 'dist'), file)));
    return { ...result, packages, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
export const syncCli = (args: string[], env: Record<string, string>) => runNode(SYNC, args, env);
/** `npm run train` */
export const trainCli = (env: Record<string, string>) => runNode(TRAIN, [], env);

export async function waitUntilReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${url}/readyz`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

export async function graphqlOver(url: string, query: string, key?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * Probes until `done` holds, for up to 5 seconds, and returns the last value (the assertion on it
 * says what was seen). A change made through the CLI shows at once on the embedded database (the
 * server runs it) and on PostgreSQL within the server's 2-second poll.
 */
export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}
