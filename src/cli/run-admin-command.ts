import 'reflect-metadata';
import pino from 'pino';
import { runAdminCommand } from '../admin/admin-commands';
import { readAdminEndpointFile } from '../admin/admin-endpoint';
import { ServiceClock } from '../clock';
import { loadConfig } from '../config';
import { openDatabase } from '../db';
import { DataDirLockedError } from '../db/data-dir-lock';
import { publicError } from '../errors';
import { billSourceFor, servedDataAsOf, syncBills } from '../ingest/sync';
import { createLogger, type Logger } from '../logger';
import { Readiness } from '../readiness';
import { createServices } from '../services';

class CliError extends Error {}

/** Runs the command on the database itself: PostgreSQL, or an embedded database no server holds. */
async function runDirectly(command: string, args: Record<string, unknown>, logger: Logger): Promise<object> {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    const clock = new ServiceClock(config.serviceDate);
    clock.setDataAsOf(await servedDataAsOf(db.dataSource));
    const services = createServices({ dataSource: db.dataSource, embeddedDatabase: db.kind === 'pglite', clock, readiness: new Readiness(), logger });
    return await runAdminCommand(
      {
        accounts: services.accounts,
        apiKeys: services.apiKeys,
        sync: (dir) => syncBills(db.dataSource, billSourceFor(config, dir), logger),
        train: () => services.models.train(),
      },
      command,
      args,
    );
  } finally {
    await db.close();
  }
}

/** Asks the server that holds the embedded database to run the command. */
async function runThroughServer(command: string, args: Record<string, unknown>, error: DataDirLockedError): Promise<object> {
  const endpoint = readAdminEndpointFile(error.dir);
  if (!endpoint || endpoint.pid !== error.holder.pid) {
    throw new CliError(`${error.message} It has not published its admin endpoint yet: try again in a moment.`);
  }
  const response = await fetch(`${endpoint.url}/admin/commands/${encodeURIComponent(command)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  const body = (await response.json()) as { detail?: string };
  if (!response.ok) throw new CliError(body.detail ?? `the server answered ${response.status}`);
  return body;
}

/** Prints the result as one JSON object on the last line of stdout; on failure `{"error": …}` and exit code 1. */
export async function runAdminCli(command: string, args: Record<string, unknown>): Promise<void> {
  // Logs go to stderr so stdout holds only the result.
  const logger = createLogger(process.env.LOG_LEVEL ?? 'info', pino.destination(2));
  try {
    let result: object;
    try {
      result = await runDirectly(command, args, logger);
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      result = await runThroughServer(command, args, error);
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    const detail = error instanceof CliError ? error.message : publicError(error).status < 500 ? publicError(error).detail : (error as Error).message;
    process.stderr.write(`error: ${detail}\n`);
    process.stdout.write(`${JSON.stringify({ error: detail })}\n`);
    process.exitCode = 1;
  }
}
