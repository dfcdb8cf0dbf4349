import { isConnectionFailure } from '../common/connection-failure';
import type { BillSource } from '../ingest/bill-source';
import type { IngestReport } from '../ingest/ingest.service';
import { hasCompletedSync, servedDataAsOf, syncBills } from '../ingest/sync';
import { MODELS_LOADING } from '../services/model.service';
import type { Services } from '../services/services';
import { ScheduledRetrain } from './scheduled-retrain';
import { ScheduledSync } from './scheduled-sync';

const DATA_LOADING = 'bill data is loading';
// The cause goes to the log: it can hold file paths that are not the public's business.
const DATA_FAILED = 'bill data failed to load (see the server log); run `npm run sync` to retry';
/** How often a server looks for syncs completed by other processes (the CLI on PostgreSQL, other instances). */
export const SYNC_STATE_POLL_MS = 2_000;

/** What the data's lifecycle follows; `npm start` takes each from the configuration. */
export interface LifecycleOptions {
  /** where a sync reads the bills: the configured source, or the snapshot folder an operator's sync names */
  billSource(snapshotDir?: string): BillSource;
  /** SYNC_INTERVAL: seconds between scheduled syncs; 0 for none */
  syncIntervalSeconds: number;
  /** RETRAIN_INTERVAL_DAYS: days between scheduled retrains; 0 for none */
  retrainIntervalDays: number;
  /** VINTAGE_TRAINING: point-in-time models for past sessions, after the serving model and after a sync that brings a session */
  vintageTraining: boolean;
  /** how often to look for syncs and model versions completed by other processes; SYNC_STATE_POLL_MS when not given, 0 for never */
  statePollMs?: number;
}

/**
 * The server's data and models over its life: a first start's ingest, then syncs one at a time
 * (the schedule's and an operator's), each followed by the served date, the freshness, the
 * predictions' data state, readiness, the models and the events refresh; the serving model (trained
 * at a first start), scheduled retrains and vintages; the poll that notices syncs, models and API
 * keys changed by other processes. `buildApp` builds it when asked (`background.lifecycle`), for
 * `npm start` and for tests alike.
 */
export class Lifecycle {
  /** the ingest of a first start (resolved at once when data was already there) */
  initialSync: Promise<void> = Promise.resolve();
  private readonly stopping = new AbortController();
  private firstStart = false;
  private firstStartSyncRunning = false;
  private syncing: Promise<unknown> = Promise.resolve();
  private modelsStarted: Promise<void> = Promise.resolve();
  private refreshing: Promise<unknown> | null = null;
  private backfilling: Promise<void> = Promise.resolve();
  private readonly scheduledSync: ScheduledSync;
  private readonly scheduledRetrain: ScheduledRetrain;
  private statePoll: NodeJS.Timeout | null = null;
  private stopWatchingCredentials: () => void = () => undefined;
  private stopped: Promise<void> | null = null;

  constructor(
    private readonly services: Services,
    private readonly options: LifecycleOptions & { postgres: boolean },
  ) {
    const { dataSource, freshness, logger, models } = services;
    // the source followed by itself: every SYNC_INTERVAL, one instance syncs, and a change runs the refresh (sync() does)
    this.scheduledSync = new ScheduledSync(dataSource, () => this.sync(), freshness, logger, { intervalSeconds: options.syncIntervalSeconds, postgres: options.postgres });
    // every RETRAIN_INTERVAL_DAYS, one instance trains a challenger; it serves only if no worse than the serving version
    this.scheduledRetrain = new ScheduledRetrain(dataSource, models, logger, { intervalDays: options.retrainIntervalDays, postgres: options.postgres });
  }

  /** Before serving: the served date, the freshness and the API keys' state as stored; readiness waits for the models, and for the data at a first start. */
  async load(): Promise<void> {
    const { dataSource, clock, freshness, apiKeys, readiness } = this.services;
    await freshness.load(dataSource);
    // the baseline later polls compare with, read before any key is trusted
    await apiKeys.checkForChanges();
    this.firstStart = !(await hasCompletedSync(dataSource));
    // A first start on a snapshot lives on the snapshot's day from its first log line, not on the
    // real date until its ingest ends: a failure to read it here is the ingest's to report.
    const firstAsOf = this.firstStart ? await this.options.billSource().asOf().catch(() => null) : null;
    clock.setDataAsOf((await servedDataAsOf(dataSource)) ?? firstAsOf);
    if (this.firstStart) readiness.block('data', DATA_LOADING);
    readiness.block('model', MODELS_LOADING);
  }

  /** Once serving (after load): the first start's ingest, the models, the schedules and the polls. */
  start(): void {
    const { logger, readiness } = this.services;
    this.firstStartSyncRunning = this.firstStart;
    this.initialSync = this.firstStart
      ? this.sync().then(
          () => {
            this.firstStartSyncRunning = false;
          },
          (error: Error) => {
            this.firstStartSyncRunning = false;
            if (this.stopping.signal.aborted) return;
            readiness.block('data', DATA_FAILED);
            logger.error({ err: error }, 'initial ingest failed');
          },
        )
      : Promise.resolve();
    void this.initialSync.then(() => this.startModels());
    void this.initialSync.then(() => this.stopping.signal.aborted || this.scheduledSync.start());
    void this.modelReady().then(() => {
      if (this.stopping.signal.aborted) return;
      this.scheduledRetrain.start();
      this.trainVintages();
    });
    this.watchCredentials();
    const pollMs = this.options.statePollMs ?? SYNC_STATE_POLL_MS;
    if (pollMs > 0) this.statePoll = setInterval(() => void this.followOtherProcesses(), pollMs).unref();
  }

  /** Resolves once a model version serves (after training one at a first start); call after start. */
  async modelReady(): Promise<void> {
    await this.initialSync;
    await this.modelsStarted;
    await this.services.models.servingIdle();
  }

  /** One ingest at a time: a scheduled or an operator's sync arriving during another (the first start's included) waits for it. */
  sync(snapshotDir?: string): Promise<IngestReport> {
    const { dataSource, clock, freshness, predictions, readiness, logger } = this.services;
    const run = this.syncing.then(async () => {
      const report = await syncBills(dataSource, this.options.billSource(snapshotDir), logger, this.stopping.signal, clock.today());
      clock.setDataAsOf(await servedDataAsOf(dataSource));
      await freshness.load(dataSource);
      await predictions.checkDataState();
      readiness.unblock('data');
      if (!this.firstStartSyncRunning) this.startModels();
      this.refreshIfDue();
      this.trainVintages();
      return report;
    });
    this.syncing = run.catch(() => undefined);
    return run;
  }

  /**
   * Point-in-time models for past dates, one session at a time in the worker, after the serving
   * model; new sessions get theirs after the sync that brought them. Nothing waits for them.
   * An operator's `npm run train -- --vintages` (`asked`) has them whatever VINTAGE_TRAINING says.
   */
  trainVintages({ asked = false } = {}): void {
    const { models, logger } = this.services;
    if (this.stopping.signal.aborted || (!asked && (!this.options.vintageTraining || !models.activeVersion()))) return;
    models.trainVintages().then(
      (run) => {
        if (run.trained.length) logger.info({ trained: run.trained.length, already: run.already }, 'vintages trained');
        // a vintage another instance is still training would leave its session's days to an older model, for good: that instance backfills after its run
        if (!run.elsewhere) this.backfillForecasts();
      },
      (error: Error) => this.stopping.signal.aborted || logger.error({ err: error }, 'vintage training failed: past dates are answered by the serving model (in sample) until it succeeds'),
    );
  }

  /** Once the vintages are in place: the forecasts of record of the past days that have none (src/services/forecasts-of-record.ts). */
  private backfillForecasts(): void {
    if (this.stopping.signal.aborted) return;
    this.backfilling = this.services.forecastBackfill
      .run(this.stopping.signal)
      .then(
        () => undefined,
        (error: Error) => {
          if (!this.stopping.signal.aborted && !isConnectionFailure(error)) this.services.logger.error({ err: error }, 'forecast backfill failed: the days left are tried again after the next sync');
        },
      );
  }

  /**
   * Stops starting work, once however many callers ask: no more polls or scheduled runs, the sync
   * under way aborted, training stopped; resolves when the scheduled runs and the events refresh
   * under way have ended. The sync and the model start under way end by `settled`.
   */
  stop(): Promise<void> {
    return (this.stopped ??= (async () => {
      if (this.statePoll) clearInterval(this.statePoll);
      this.stopWatchingCredentials();
      this.stopping.abort();
      this.services.models.stop();
      await this.scheduledSync.stop();
      await this.scheduledRetrain.stop();
      await this.refreshing;
      await this.backfilling;
      await this.services.events.refresh.idle();
    })());
  }

  /** Resolves once the sync and the model start under way have ended. */
  async settled(): Promise<void> {
    await this.syncing;
    await this.modelsStarted;
  }

  /** With data in place, serve the stored model, or train one in the background (503 "models loading" meanwhile). */
  private startModels(): void {
    if (!this.services.readiness.isReady('data') || this.stopping.signal.aborted) return;
    this.modelsStarted = this.services.models
      .start({ trainIfMissing: true })
      .then(() => this.refreshIfDue())
      .catch((error: Error) => this.services.logger.error({ err: error }, 'could not load a model'));
  }

  /** The events refresh runs when the day, the data or the model moved; a tick never queues a second one. */
  private refreshIfDue(): void {
    if (this.refreshing || this.stopping.signal.aborted) return;
    this.refreshing = this.services.events.refresh
      .runIfDue()
      .catch((error: Error) => isConnectionFailure(error) || this.services.logger.error({ err: error }, 'events refresh failed'))
      .finally(() => (this.refreshing = null));
  }

  /**
   * Revocations and tier changes made elsewhere, noticed within CREDENTIALS_POLL_MS. On the
   * embedded database there is no elsewhere: no other process opens it while the server runs (the
   * admin CLI goes through the server), and changes made here drop the verified keys at once.
   */
  private watchCredentials(): void {
    if (!this.options.postgres) return;
    this.stopWatchingCredentials = this.services.apiKeys.watch(undefined, (error) => {
      if (error && !this.stopping.signal.aborted && !isConnectionFailure(error)) this.services.logger.warn({ err: error }, 'could not read the state of API keys');
    });
  }

  /** A tick of the state poll: syncs completed and model versions trained by other processes (the CLI on PostgreSQL, other instances). */
  private async followOtherProcesses(): Promise<void> {
    const { dataSource, clock, freshness, predictions, readiness, models, logger } = this.services;
    try {
      // one read of the sync state a tick; the as-of date only when a sync has completed since
      const { state, changed } = await predictions.checkDataState();
      await freshness.load(dataSource);
      if (!state) return;
      if (changed) {
        clock.setDataAsOf(await servedDataAsOf(dataSource));
        this.trainVintages();
      }
      if (!readiness.isReady('data') && !this.firstStartSyncRunning) readiness.unblock('data');
      // also serves a version trained by `npm run train` in another process, without a restart
      if (models.activeVersion()) await models.followPromotions();
      else this.startModels();
      this.refreshIfDue();
    } catch (error) {
      // an unreachable database is logged once, by its health, not every tick
      if (!isConnectionFailure(error as Error)) logger.warn({ err: error }, 'could not read the sync state');
    }
  }
}
