import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { collectStats } from '../admin/admin-stats';
import { runAdminCommand } from '../admin/admin-commands';
import { ServiceClock } from '../clock';
import type { Config } from '../config';
import { openDatabase } from '../db';
import { badInput } from '../errors';
import { billSourceFor, servedDataAsOf, syncBills } from '../ingest/sync';
import type { Logger } from '../logger';
import { Readiness } from '../readiness';
import { createServices } from '../services';

/**
 * Runs a command on the database itself: PostgreSQL, or an embedded database no server holds
 * (opening it takes the data-directory lock, and throws DataDirLockedError when a server has it).
 * Kept apart from run-admin-command.ts so that a command a running server answers loads none of this.
 */
export async function runDirectly(config: Config, command: string, args: Record<string, unknown>, logger: Logger): Promise<object> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    const clock = new ServiceClock(config.serviceDate);
    clock.setDataAsOf(await servedDataAsOf(db.dataSource));
    const services = createServices({ dataSource: db.dataSource, embeddedDatabase: db.kind === 'pglite', clock, readiness: new Readiness(), logger });
    return await runAdminCommand(
      {
        accounts: services.accounts,
        apiKeys: services.apiKeys,
        dataSource: db.dataSource,
        sync: (dir) => syncBills(db.dataSource, billSourceFor(config, dir), logger),
        train: () => services.models.train(),
        dump: db.dump,
      },
      command,
      args,
    );
  } finally {
    await db.close();
  }
}

/**
 * Replaces the embedded database with a backup. The database found there is moved aside, not
 * deleted; migrations bring an older backup up to date. Never while a server holds the directory
 * (the lock refuses it).
 */
export async function restoreDirectly(config: Config, file: string): Promise<object> {
  let dump: Buffer;
  try {
    dump = readFileSync(file);
  } catch (error) {
    throw badInput(`cannot read the backup ${file}: ${(error as Error).message}`);
  }
  const db = await openDatabase({ dataDir: config.dataDir, loadDataDir: new Blob([dump]), replaceExisting: true, poolSize: 2 });
  try {
    const stats = await collectStats(db.dataSource);
    return { restored_from: file, data_dir: config.dataDir, previous_data: db.setAside ?? null, bills: stats.bills, users: stats.users, keys: stats.keys };
  } finally {
    await db.close();
  }
}
