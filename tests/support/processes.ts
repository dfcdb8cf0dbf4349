import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVER = path.join(ROOT, 'dist', 'src', 'server.js');
const ADMIN = path.join(ROOT, 'dist', 'src', 'cli', 'admin.js');
const SYNC = path.join(ROOT, 'dist', 'src', 'cli', 'sync.js');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** parsed JSON log lines so far */
  logs: Array<Record<string, unknown>>;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

const baseEnv = (env: Record<string, string>) => ({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env });

/** The built server (`npm test` builds first) as its own process; resolves once it listens. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: Array<Record<string, unknown>> = [];
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'listening') {
          resolve({
            child,
            url: `http://127.0.0.1:${entry.port}`,
            logs,
            exited,
            stop: () => (child.exitCode === null ? (child.kill('SIGTERM'), exited) : exited),
          });
        }
      }
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** the JSON object on the last line of stdout */
  json: Record<string, any>;
}

function runNode(script: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, [script, ...args], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) =>
    child.once('exit', (code) => {
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

export const adminCli = (args: string[], env: Record<string, string>) => runNode(ADMIN, args, env);
export const syncCli = (args: string[], env: Record<string, string>) => runNode(SYNC, args, env);

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
