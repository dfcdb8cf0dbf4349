import path from 'node:path';
import pino from 'pino';
import { PROGRESS_STREAM, readAdminEndpointFile } from '../door/admin-endpoint-file';
import { requiredString } from '../commands/admin-commands';
import { USE_PG_TOOLS } from '../commands/backup';
import { type Config, loadConfig } from '../../config';
import { DataDirLockedError, lockHolder } from '../../db/data-dir-lock';
import { mapAppError } from '../../errors';
import { createLogger, type Logger } from '../../logger';

/* Runs an admin command for the CLI: through the running server that holds the database, or itself. */

class CliError extends Error {}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Commands whose server answers a line per step: progress goes to stderr as it comes. */
const STREAMED = new Set(['replay']);

async function readProgress(response: Response): Promise<object> {
  let buffered = '';
  let last: { result?: object; error?: string } = {};
  const decoder = new TextDecoder();
  const handle = (line: string) => {
    if (!line.trim()) return;
    const parsed = JSON.parse(line) as { progress?: object; result?: object; error?: string };
    if (parsed.progress) process.stderr.write(`${JSON.stringify(parsed.progress)}\n`);
    else last = parsed;
  };
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    lines.forEach(handle);
  }
  handle(buffered);
  if (last.error !== undefined || !last.result) throw new CliError(last.error ?? 'the server ended the answer early');
  return last.result;
}

/** Asks the running server to run the command (the one holding the embedded database, or any on PostgreSQL for replay). */
async function runThroughServer(command: string, args: Record<string, unknown>, dataDir: string, holderPid: number, locked: string): Promise<object> {
  const endpoint = readAdminEndpointFile(dataDir);
  if (!endpoint || endpoint.pid !== holderPid) {
    throw new CliError(`${locked} It has not published its admin endpoint yet: try again in a moment.`);
  }
  const response = await fetch(`${endpoint.url}/admin/commands/${encodeURIComponent(command)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json', ...(STREAMED.has(command) ? { accept: PROGRESS_STREAM } : {}) },
    body: JSON.stringify(args),
  });
  if (response.ok && response.headers.get('content-type')?.startsWith(PROGRESS_STREAM)) return readProgress(response);
  const body = (await response.json()) as { detail?: string };
  if (!response.ok) throw new CliError(body.detail ?? `the server answered ${response.status}`);
  return body;
}

async function run(config: Config, command: string, args: Record<string, unknown>, logger: Logger): Promise<object> {
  const embedded = !config.databaseUrl;
  if (command === 'restore') {
    if (!embedded) throw new CliError(USE_PG_TOOLS);
    const holder = lockHolder(config.dataDir);
    if (holder) throw new CliError(`a server (process ${holder.pid} on ${holder.hostname}) is using ${config.dataDir}: stop it, then restore`);
    const { restoreDirectly } = await import('./run-admin-directly');
    return restoreDirectly(config, path.resolve(requiredString(args.from, 'from')));
  }
  if (command === 'backup' && !embedded) throw new CliError(USE_PG_TOOLS);
  // a replay moves a running server's day: on PostgreSQL, the server that published its endpoint in DATA_DIR
  if (command === 'replay' && !embedded) {
    const endpoint = readAdminEndpointFile(config.dataDir);
    if (!endpoint || !isAlive(endpoint.pid)) throw new CliError(`replay moves a running server's day: no server has published its admin endpoint in ${config.dataDir} (start one with this DATA_DIR)`);
    return runThroughServer(command, args, config.dataDir, endpoint.pid, '');
  }
  // The server may run elsewhere in the file system: it gets absolute paths.
  if (command === 'backup' && typeof args.to === 'string') args = { ...args, to: path.resolve(args.to) };
  // A running server answers without this process loading the database code at all.
  const holder = embedded ? lockHolder(config.dataDir) : null;
  if (holder) return runThroughServer(command, args, config.dataDir, holder.pid, new DataDirLockedError(config.dataDir, holder).message);
  const { runDirectly } = await import('./run-admin-directly');
  try {
    return await runDirectly(config, command, args, logger);
  } catch (error) {
    // a server took the directory between the look and the open
    if (!(error instanceof DataDirLockedError)) throw error;
    return runThroughServer(command, args, error.dir, error.holder.pid, error.message);
  }
}

/** Prints the result as one JSON object on the last line of stdout; on failure `{"error": …}` and exit code 1. */
export async function runAdminCli(command: string, args: Record<string, unknown>): Promise<void> {
  // Logs go to stderr so stdout holds only the result.
  const logger = createLogger(process.env.LOG_LEVEL ?? 'info', pino.destination(2));
  try {
    const result = await run(loadConfig(), command, args, logger);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    const shown = mapAppError(error);
    const detail = error instanceof CliError ? error.message : shown.status < 500 ? shown.detail : (error as Error).message;
    process.stderr.write(`error: ${detail}\n`);
    process.stdout.write(`${JSON.stringify({ error: detail })}\n`);
    process.exitCode = 1;
  }
}
