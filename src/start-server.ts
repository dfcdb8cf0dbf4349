import type { AddressInfo } from 'node:net';
import type { AdminDeps } from './admin/admin-commands';
import { type AdminEndpoint, startAdminEndpoint } from './doors/admin/admin-endpoint';
import { readAdminEndpointFile, removeAdminEndpointFile, writeAdminEndpointFile } from './doors/admin/admin-endpoint-file';
import { mkdirSync } from 'node:fs';
import { type BuiltApp, buildApp } from './app';
import { listenAcceptingInParallel, type ParallelAccept } from './doors/http/parallel-accept';
import { ServiceClock } from './common/clock';
import type { Config } from './config';
import { isConnectionFailure } from './db/connection-failure';
import { openServedDatabase } from './db/open-served-database';
import { listenNotReady } from './doors/http/not-ready-server';
import { billSourceFor, hasCompletedSync, servedDataAsOf, syncBills } from './ingest/sync';
import type { Logger } from './logger';
import type { ServiceDeps } from './services/services';

type ServiceDepsTraining = ServiceDeps['trainingOptions'];
import { Readiness } from './health/readiness';
import type { Services } from './services/services';
import { MODELS_LOADING } from './services/model.service';
import { loadSecretBox } from './events/webhooks/secret-box';
import { replay } from './jobs/replay';
import { ScheduledSync } from './jobs/scheduled-sync';
import { ScheduledRetrain } from './jobs/scheduled-retrain';
import { DataFreshness } from './ingest/freshness';

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

const DATA_LOADING = 'bill data is loading';
/** How often a server looks for syncs completed by other processes (the CLI on PostgreSQL, other instances). */
const SYNC_STATE_POLL_MS = 2_000;
// The cause goes to the log: it can hold file paths that are not the public's business.
const DATA_FAILED = 'bill data failed to load (see the server log); run `npm run sync` to retry';

/**
 * Opens the database, serves HTTP at once (/healthz answers while data loads) and, when no sync
 * has ever completed, ingests before /readyz turns 200.
 */
export async function startServer(config: Config, logger: Logger, options: { trainingOptions?: ServiceDepsTraining; signal?: AbortSignal } = {}): Promise<RunningServer> {
  const readiness = new Readiness();
  // PostgreSQL unreachable at start: retried, with 503s naming it on the port meanwhile; `signal` stops the wait
  const database = await openServedDatabase(config, logger, readiness, { signal: options.signal, holdPort: () => listenNotReady(config.port, config.host, readiness) });
  const db = database.db;
  const clock = new ServiceClock(config.serviceDate);
  const freshness = new DataFreshness(config.snapshotDir ? 'snapshot' : 'live', config.syncIntervalSeconds);
  const embedded = db.kind === 'pglite';
  let built: BuiltApp;
  try {
    built = await buildApp({
      dataSource: db.dataSource,
      embeddedDatabase: embedded,
      clock,
      readiness,
      freshness,
      logger,
      trainingOptions: options.trainingOptions,
      redisUrl: config.redisUrl,
      burstLimit: { max: config.burstLimit, windowSeconds: 10 },
      webhooks: { urlPolicy: { allowPrivate: config.webhookAllowPrivate }, secretBox: loadSecretBox({ configuredKey: config.webhookSecretKey, dataDir: config.dataDir }) },
      anonRateLimit: config.anonRateLimit,
      corsOrigins: config.corsOrigins,
      trustProxy: config.trustProxy,
      metricsToken: config.metricsToken,
      background: { webhookDelivery: true, hourlyJobs: { retentionDays: config.retentionDays } },
    });
  } catch (error) {
    database.stopWatching();
    await db.close();
    throw error;
  }
  const { services, http: app } = built;
  const stopping = new AbortController();

  // With data in place, serve the stored model, or train one in the background (503 "models loading" meanwhile).
  let modelsStarted: Promise<void> = Promise.resolve();
  const startModels = () => {
    if (!readiness.isReady('data') || stopping.signal.aborted) return;
    modelsStarted = services.models
      .start({ trainIfMissing: true })
      .then(refreshIfDue)
      .catch((error: Error) => logger.error({ err: error }, 'could not load a model'));
  };
  let firstStartSyncRunning = false;
  let initialSync: Promise<void> = Promise.resolve();
  const modelReady = async () => {
    await initialSync;
    await modelsStarted;
    await services.models.servingIdle();
  };
  // Point-in-time models for past dates, one session at a time in the worker, after the serving
  // model; new sessions get theirs after the sync that brought them. Nothing waits for them.
  // An operator's `npm run train -- --vintages` asks for them whatever VINTAGE_TRAINING says.
  const trainVintages = ({ asked = false } = {}) => {
    if (stopping.signal.aborted || (!asked && (!config.vintageTraining || !services.models.activeVersion()))) return;
    services.models.trainVintages().then(
      (run) => run.trained.length && logger.info({ trained: run.trained.length, already: run.already }, 'vintages trained'),
      (error: Error) => stopping.signal.aborted || logger.error({ err: error }, 'vintage training failed: past dates are answered by the serving model (in sample) until it succeeds'),
    );
  };

  // The events refresh runs when the day, the data or the model moved; a tick never queues a second one.
  let refreshing: Promise<unknown> | null = null;
  const refreshIfDue = () => {
    if (refreshing || stopping.signal.aborted) return;
    refreshing = services.events.refresh
      .runIfDue()
      .catch((error: Error) => isConnectionFailure(error) || logger.error({ err: error }, 'events refresh failed'))
      .finally(() => (refreshing = null));
  };

  let syncing: Promise<unknown> = Promise.resolve();
  /** one ingest at a time: a CLI sync arriving during the first-start ingest waits for it */
  const sync = (snapshotDir?: string) => {
    const run = syncing.then(async () => {
      const report = await syncBills(db.dataSource, billSourceFor(config, snapshotDir), logger, stopping.signal, clock.today());
      clock.setDataAsOf(await servedDataAsOf(db.dataSource));
      await freshness.load(db.dataSource);
      await services.predictions.checkDataState();
      readiness.unblock('data');
      if (!firstStartSyncRunning) startModels();
      refreshIfDue();
      trainVintages();
      return report;
    });
    syncing = run.catch(() => undefined);
    return run;
  };
  const adminDeps: AdminDeps = {
    accounts: services.accounts,
    apiKeys: services.apiKeys,
    sessions: services.sessions,
    dataSource: db.dataSource,
    sync,
    train: async ({ vintages }) => {
      if (!vintages) return services.models.train();
      // minutes of training: the answer does not wait for it (the log and `npm run admin -- models` show each one stored)
      trainVintages({ asked: true });
      return { vintages: 'training in the background, one session at a time: npm run admin -- models lists each as it is stored' };
    },
    dump: db.dump,
    replay: (from, to, onDay) => replay(services.events.refresh, clock, from, to, onDay),
  };

  let admin: AdminEndpoint | undefined;
  let parallelAccept: ParallelAccept | undefined;
  let firstStart: boolean;
  try {
    clock.setDataAsOf(await servedDataAsOf(db.dataSource));
    await freshness.load(db.dataSource);
    // the baseline later polls compare with, read before any key is trusted
    await services.apiKeys.checkForChanges();
    firstStart = !(await hasCompletedSync(db.dataSource));
    if (firstStart) readiness.block('data', DATA_LOADING);
    readiness.block('model', MODELS_LOADING);
    parallelAccept = await listenAcceptingInParallel(app.httpServer, await database.handOverPort(), config.host, config.acceptListeners, {
      onCopiesFailed: (error) => logger.warn({ err: error }, 'accepting on one descriptor: no copies of the listening socket could be made'),
    });
    // on PostgreSQL too: `npm run admin -- replay` moves this server's day
    admin = await startAdminEndpoint(adminDeps, logger);
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
  logger.info({ port, database: db.kind, today: clock.today(), acceptors: parallelAccept!.acceptors }, 'listening');

  firstStartSyncRunning = firstStart;
  initialSync = firstStart
    ? sync().then(
        () => {
          firstStartSyncRunning = false;
        },
        (error: Error) => {
          firstStartSyncRunning = false;
          if (stopping.signal.aborted) return;
          readiness.block('data', DATA_FAILED);
          logger.error({ err: error }, 'initial ingest failed');
        },
      )
    : Promise.resolve();

  void initialSync.then(startModels);

  // the source followed by itself: every SYNC_INTERVAL, one instance syncs, and a change runs the refresh (sync() does)
  const scheduledSync = new ScheduledSync(db.dataSource, () => sync(), freshness, logger, { intervalSeconds: config.syncIntervalSeconds, postgres: !embedded });
  void initialSync.then(() => stopping.signal.aborted || scheduledSync.start());
  // every RETRAIN_INTERVAL_DAYS, one instance trains a challenger; it serves only if no worse than the serving version
  const scheduledRetrain = new ScheduledRetrain(db.dataSource, services.models, logger, { intervalDays: config.retrainIntervalDays, postgres: !embedded });
  void modelReady().then(() => {
    if (stopping.signal.aborted) return;
    scheduledRetrain.start();
    trainVintages();
  });

  // Revocations and tier changes made elsewhere, noticed within CREDENTIALS_POLL_MS. On the
  // embedded database there is no elsewhere: no other process opens it while the server runs (the
  // admin CLI goes through the server), and changes made here drop the verified keys at once.
  const stopWatchingCredentials = embedded
    ? () => undefined
    : services.apiKeys.watch(undefined, (error) => {
        if (error && !stopping.signal.aborted && !isConnectionFailure(error)) logger.warn({ err: error }, 'could not read the state of API keys');
      });
  const watch = setInterval(() => {
    void (async () => {
      // one read of the sync state a tick; the as-of date only when a sync has completed since
      const { state, changed } = await services.predictions.checkDataState();
      await freshness.load(db.dataSource);
      if (!state) return;
      if (changed) {
        clock.setDataAsOf(await servedDataAsOf(db.dataSource));
        trainVintages();
      }
      if (!readiness.isReady('data') && !firstStartSyncRunning) readiness.unblock('data');
      // also serves a version trained by `npm run train` in another process, without a restart
      if (services.models.activeVersion()) await services.models.refresh();
      else startModels();
      refreshIfDue();
    })().catch((error: Error) => {
      // an unreachable database is logged once, by its health, not every tick
      if (!isConnectionFailure(error)) logger.warn({ err: error }, 'could not read the sync state');
    });
  }, SYNC_STATE_POLL_MS).unref();

  // the hourly alert checks and retention, and webhook delivery
  await built.start();

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down');
      clearInterval(watch);
      stopWatchingCredentials();
      stopping.abort();
      // webhook attempts under way finish (or are handed back) while requests drain
      const backgroundStopped = built.stopBackground();
      services.models.stop();
      await scheduledSync.stop();
      await scheduledRetrain.stop();
      await backgroundStopped;
      await refreshing;
      await services.events.refresh.idle();
      if (readAdminEndpointFile(config.dataDir)?.pid === process.pid) removeAdminEndpointFile(config.dataDir);
      await admin?.close();
      await app.stop();
      await syncing;
      await modelsStarted;
      // training idle, quotas flushed, webhook attempts ended, the bus closed
      await built.close();
      database.stopWatching();
      await db.close();
      logger.info('stopped');
    })());

  return { port, url: `http://127.0.0.1:${port}`, services, initialSync, modelReady, close };
}
