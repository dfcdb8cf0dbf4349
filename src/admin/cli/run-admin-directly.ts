import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { collectStats } from '../commands/admin-stats';
import { runAdminCommand } from '../commands/admin-commands';
import type { Config } from '../../config';
import { openDatabase, type Database } from '../../db/database';
import { AppError, badInput } from '../../errors';
import type { Logger } from '../../logger';
import { createAccountServices } from '../../services/account-services';

/* The admin commands run on the database itself, with no server: loaded only when no server answers. */

/**
 * Trains a model version on the stored data: the model, the clock and the prediction services,
 * loaded only for this (`npm run train` with no server).
 */
async function trainDirectly(config: Config, db: Database, logger: Logger, options: { vintages: boolean }): Promise<object> {
  const [{ ServiceClock }, { servedDataAsOf }, { Readiness }, { createServices }] = await Promise.all([
    import('../../common/clock'),
    import('../../ingest/sync'),
    import('../../health/readiness'),
    import('../../services/services'),
  ]);
  const clock = new ServiceClock(config.serviceDate);
  clock.setDataAsOf(await servedDataAsOf(db.dataSource));
  const services = createServices({ dataSource: db.dataSource, embeddedDatabase: db.kind === 'pglite', clock, readiness: new Readiness(), logger });
  if (!options.vintages) return services.models.train();
  const started = Date.now();
  const run = await services.models.trainVintages();
  return { ...run, total_ms: Date.now() - started };
}

/**
 * Runs a command on the database itself: PostgreSQL, or an embedded database no server holds
 * (opening it takes the data-directory lock, and throws DataDirLockedError when a server has it).
 * Kept apart from run-admin-command.ts so that a command a running server answers loads none of
 * this; and an operator's account or key command loads the database and the accounts code only
 * (the ingest and the model are loaded by `sync` and `train` when they run).
 */
export async function runDirectly(config: Config, command: string, args: Record<string, unknown>, logger: Logger): Promise<object> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    const accountServices = createAccountServices(db.dataSource);
    return await runAdminCommand(
      {
        ...accountServices,
        sessions: {
          // the password code (scrypt, the log-in limiter) is loaded by set-password only
          setPassword: async (email, password) => {
            const { SessionService } = await import('../../services/session.service');
            return new SessionService(db.dataSource, accountServices.accounts).setPassword(email, password);
          },
        },
        dataSource: db.dataSource,
        sync: async (dir) => {
          const { billSourceFor, syncBills } = await import('../../ingest/sync');
          return syncBills(db.dataSource, billSourceFor(config, dir), logger, undefined, config.serviceDate);
        },
        train: (options) => trainDirectly(config, db, logger, options),
        dump: db.dump,
        replay: () => {
          throw new AppError('SERVICE_UNAVAILABLE', 'replay moves a running server\'s day: start the server (npm start) with this DATA_DIR, then run it again');
        },
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
