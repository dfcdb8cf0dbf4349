import type { AddressInfo } from 'node:net';
import type { AdminDeps } from './admin/commands/admin-commands';
import { type AdminEndpoint, startAdminEndpoint } from './admin/door/admin-endpoint';
import { readAdminEndpointFile, removeAdminEndpointFile, writeAdminEndpointFile } from './admin/door/admin-endpoint-file';
import { mkdirSync } from 'node:fs';
import { type BuiltApp, buildApp } from './app';
import { listenAcceptingInParallel, type ParallelAccept } from './doors/http/parallel-accept';
import { ServiceClock } from './common/clock';
import type { Config } from './config';
import { openServedDatabase } from './db/open-served-database';
import { listenNotReady } from './doors/http/not-ready-server';
import { billSourceFor } from './ingest/sync';
import type { Logger } from './logger';
import type { ServiceDeps } from './services/services';
import { Readiness } from './health/readiness';
import type { Services } from './services/services';
import { loadSecretBox } from './events/webhooks/secret-box';
import type { Lifecycle } from './jobs/lifecycle';
import { replay } from './services/replay';
import { DataFreshness } from './ingest/freshness';

type ServiceDepsTraining = ServiceDeps['trainingOptions'];

export interface RunningServer {
  port: number;
  url: string;
  services: Services;
  /** the ingest of a first start (resolved at once when data was already there) */
  initialSync: Promise<void>;
  /** resolves once a model version serves (after training one at a first start) */
  modelReady(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the database, builds the app with its whole lifecycle (src/jobs/lifecycle.ts), serves HTTP
 * at once (/healthz answers while data loads) and, when no sync has ever completed, ingests before
 * /readyz turns 200. What is this process's own: the database, the port, the admin endpoint and its file.
 */
export async function startServer(config: Config, logger: Logger, options: { trainingOptions?: ServiceDepsTraining; signal?: AbortSignal } = {}): Promise<RunningServer> {
  const readiness = new Readiness();
  // PostgreSQL unreachable at start: retried, with 503s naming it on the port meanwhile; `signal` stops the wait
  const database = await openServedDatabase(config, logger, readiness, { signal: options.signal, holdPort: () => listenNotReady(config.port, config.host, readiness) });
  const db = database.db;
  const clock = new ServiceClock(config.serviceDate);
  let built: BuiltApp;
  try {
    built = await buildApp({
      dataSource: db.dataSource,
      embeddedDatabase: db.kind === 'pglite',
      clock,
      readiness,
      freshness: new DataFreshness(config.snapshotDir ? 'snapshot' : 'live', config.syncIntervalSeconds),
      logger,
      trainingOptions: options.trainingOptions,
      redisUrl: config.redisUrl,
      burstLimit: { max: config.burstLimit, windowSeconds: 10 },
      webhooks: { urlPolicy: { allowPrivate: config.webhookAllowPrivate, chatHosts: config.chatWebhookHosts }, secretBox: loadSecretBox({ configuredKey: config.webhookSecretKey, dataDir: config.dataDir }) },
      anonRateLimit: config.anonRateLimit,
      corsOrigins: config.corsOrigins,
      trustProxy: config.trustProxy,
      metricsToken: config.metricsToken,
      publicUrl: config.publicUrl,
      background: {
        webhookDelivery: true,
        hourlyJobs: { retentionDays: config.retentionDays },
        lifecycle: {
          billSource: (snapshotDir) => billSourceFor(config, snapshotDir),
          syncIntervalSeconds: config.syncIntervalSeconds,
          retrainIntervalDays: config.retrainIntervalDays,
          vintageTraining: config.vintageTraining,
        },
      },
    });
  } catch (error) {
    database.stopWatching();
    await db.close();
    throw error;
  }
  const { services, http: app } = built;
  // built, since the options above ask for it
  const lifecycle = built.lifecycle as Lifecycle;

  let admin: AdminEndpoint | undefined;
  let parallelAccept: ParallelAccept | undefined;
  try {
    parallelAccept = await listenAcceptingInParallel(app.httpServer, await database.handOverPort(), config.host, config.acceptListeners, {
      onCopiesFailed: (error) => logger.warn({ err: error }, 'accepting on one descriptor: no copies of the listening socket could be made'),
    });
    // on PostgreSQL too: `npm run admin -- replay` moves this server's day
    admin = await startAdminEndpoint(adminDeps(services, lifecycle, db.dump), logger);
    mkdirSync(config.dataDir, { recursive: true });
    writeAdminEndpointFile(config.dataDir, { url: admin.url, token: admin.token, pid: process.pid });
  } catch (error) {
    await admin?.close();
    await built.close();
    database.stopWatching();
    await db.close();
    throw error;
  }
  const port = (app.httpServer.address() as AddressInfo).port;
  logger.info({ port, database: db.kind, today: clock.today(), acceptors: parallelAccept.acceptors }, 'listening');

  // the first start's ingest, the models, scheduled syncs and retrains, the polls; the hourly jobs and webhook delivery
  await built.start();

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down');
      // webhook attempts under way finish (or are handed back) while requests drain
      await built.stopBackground();
      if (readAdminEndpointFile(config.dataDir)?.pid === process.pid) removeAdminEndpointFile(config.dataDir);
      await admin?.close();
      // the doors drained, the sync and training under way ended, quotas flushed, webhook attempts ended, the bus closed
      await built.close();
      database.stopWatching();
      await db.close();
      logger.info('stopped');
    })());

  return { port, url: `http://127.0.0.1:${port}`, services, initialSync: lifecycle.initialSync, modelReady: () => lifecycle.modelReady(), close };
}

/** What the admin endpoint (`npm run admin`, `npm run sync`, `npm run train` while the server runs) does through this server. */
function adminDeps(services: Services, lifecycle: Lifecycle, dump: AdminDeps['dump']): AdminDeps {
  return {
    accounts: services.accounts,
    apiKeys: services.apiKeys,
    sessions: services.sessions,
    dataSource: services.dataSource,
    sync: (snapshotDir) => lifecycle.sync(snapshotDir),
    train: async ({ vintages }) => {
      if (!vintages) return services.models.train();
      // minutes of training: the answer does not wait for it (the log and `npm run admin -- models` show each one stored)
      lifecycle.trainVintages({ asked: true });
      return { vintages: 'training in the background, one session at a time: npm run admin -- models lists each as it is stored' };
    },
    dump,
    replay: (from, to, onDay) => replay(services.events.refresh, services.clock, from, to, onDay),
  };
}
