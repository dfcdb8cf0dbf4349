import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { newAdminToken, removeAdminEndpointFile, writeAdminEndpointFile } from './admin/admin-endpoint';
import type { AdminDeps } from './admin/admin-commands';
import { ServiceClock } from './clock';
import type { Config } from './config';
import { openDatabase } from './db';
import { billSourceFor, hasCompletedSync, servedDataAsOf, syncBills } from './ingest/sync';
import type { Logger } from './logger';
import { Readiness } from './readiness';
import { buildAppSchema } from '../resolvers/schema';
import { createServices, type Services } from './services';

export interface RunningServer {
  port: number;
  url: string;
  services: Services;
  /** the ingest of a first start (resolved at once when data was already there) */
  initialSync: Promise<void>;
  close(): Promise<void>;
}

const DATA_LOADING = 'bill data is loading';

/**
 * Opens the database, serves HTTP at once (/healthz answers while data loads) and, when no sync
 * has ever completed, ingests before /readyz turns 200.
 */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  const clock = new ServiceClock(config.serviceDate);
  const readiness = new Readiness();
  const services = createServices({ dataSource: db.dataSource, clock, readiness, logger });
  const embedded = db.kind === 'pglite';

  let syncing: Promise<unknown> = Promise.resolve();
  /** one ingest at a time: a CLI sync arriving during the first-start ingest waits for it */
  const sync = (snapshotDir?: string) => {
    const run = syncing.then(async () => {
      const report = await syncBills(db.dataSource, billSourceFor(config, snapshotDir), logger);
      clock.setDataAsOf(await servedDataAsOf(db.dataSource));
      return report;
    });
    syncing = run.catch(() => undefined);
    return run;
  };
  const adminDeps: AdminDeps = { accounts: services.accounts, apiKeys: services.apiKeys, sync };
  const adminToken = newAdminToken();

  let app;
  try {
    clock.setDataAsOf(await servedDataAsOf(db.dataSource));
    app = await createApp(services, { schema: await buildAppSchema(), admin: embedded ? { token: adminToken, deps: adminDeps } : undefined });
    await new Promise<void>((resolve, reject) => {
      app!.httpServer.once('error', reject);
      app!.httpServer.listen(config.port, config.host, resolve);
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  const port = (app.httpServer.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  if (embedded) writeAdminEndpointFile(config.dataDir, { url, token: adminToken, pid: process.pid });
  logger.info({ port, database: db.kind, today: clock.today() }, 'listening');

  let initialSync: Promise<void> = Promise.resolve();
  if (!(await hasCompletedSync(db.dataSource))) {
    readiness.block('data', DATA_LOADING);
    initialSync = sync().then(
      () => readiness.unblock('data'),
      (error: Error) => {
        readiness.block('data', `bill data failed to load: ${error.message}`);
        logger.error({ err: error }, 'initial ingest failed');
      },
    );
  }

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down');
      if (embedded) removeAdminEndpointFile(config.dataDir);
      await app.stop();
      await syncing;
      await db.close();
      logger.info('stopped');
    })());

  return { port, url, services, initialSync, close };
}
