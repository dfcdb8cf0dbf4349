import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { registerSyncMetrics, type SyncFreshness } from './sync-metrics';

/*
 * The service's Prometheus registry and the metrics of the whole service: the model served, the
 * data's freshness, the events refreshes, webhook deliveries, quota refusals, subscriptions and
 * the PostgreSQL pool. A door adds its own (src/doors/http/http-metrics.ts: requests, operations,
 * GET /metrics).
 */

/**
 * What the metrics read, by shape: the services (src/services/services.ts) have all of it, and
 * this layer sits below them, so it names no service.
 */
export interface MetricSources {
  quotas: { readonly refusals: Readonly<Record<string, number>> };
  events: {
    readonly deliveryCounts: Readonly<Record<string, number>>;
    refresh: { readonly statistics: { readonly runs: number; readonly seconds: number; readonly lastSeconds: number; readonly eventsByType: Readonly<Record<string, number>> } };
    bus: { subscribers(): number };
  };
  models: { activeVersion(): { id: number; feature_schema_version: number; created_at: string } | null };
  freshness: SyncFreshness;
  dataSource: { driver: unknown };
}

/** A registry of its own per app, so several apps in one process (as in tests) do not collide; with the process defaults. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Quota refusals by limit, webhook deliveries, the model served, the sync, events refreshes and subscriptions, the PostgreSQL pool's connections. */
export function registerServiceMetrics(registry: Registry, sources: MetricSources): void {
  const registers = [registry];
  new Counter({
    name: 'bill_progress_quota_refusals_total',
    help: 'Requests and batch items refused by a daily limit, by limit',
    labelNames: ['limit'],
    registers,
    collect() {
      this.reset();
      for (const [limit, count] of Object.entries(sources.quotas.refusals)) this.inc({ limit }, count);
    },
  });
  new Counter({
    name: 'bill_progress_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, http_error, timeout, network_error, refused_address, aborted by a shutdown), and deliveries given up after the last retry (failed_for_good)',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      for (const [outcome, count] of Object.entries(sources.events.deliveryCounts)) this.inc({ outcome }, count);
    },
  });
  new Gauge({
    name: 'bill_progress_model_info',
    help: 'The model version serving predictions (1), with its feature schema version',
    labelNames: ['version', 'feature_schema_version'],
    registers,
    collect() {
      this.reset();
      const active = sources.models.activeVersion();
      if (active) this.set({ version: String(active.id), feature_schema_version: String(active.feature_schema_version) }, 1);
    },
  });
  new Gauge({
    name: 'bill_progress_model_trained_timestamp_seconds',
    help: 'When the model version serving predictions was trained (Unix seconds)',
    registers,
    collect() {
      this.reset();
      const active = sources.models.activeVersion();
      if (active) this.set(Date.parse(active.created_at) / 1000);
    },
  });
  registerSyncMetrics(registry, sources.freshness);
  const refresh = sources.events.refresh.statistics;
  new Counter({
    name: 'bill_progress_event_refreshes_total',
    help: 'Events refreshes that ran (a day, data or model change) in this process',
    registers,
    collect() {
      this.reset();
      this.inc(refresh.runs);
    },
  });
  new Counter({
    name: 'bill_progress_event_refresh_seconds_total',
    help: 'Time spent in events refreshes in this process (divide by bill_progress_event_refreshes_total for the mean)',
    registers,
    collect() {
      this.reset();
      this.inc(refresh.seconds);
    },
  });
  new Gauge({
    name: 'bill_progress_event_refresh_last_seconds',
    help: 'Duration of the last events refresh in this process',
    registers,
    collect() {
      this.set(refresh.lastSeconds);
    },
  });
  new Counter({
    name: 'bill_progress_events_emitted_total',
    help: 'Events emitted by the refreshes of this process, by type',
    labelNames: ['type'],
    registers,
    collect() {
      this.reset();
      for (const [type, count] of Object.entries(refresh.eventsByType)) this.inc({ type }, count);
    },
  });
  new Gauge({
    name: 'bill_progress_event_subscriptions',
    help: 'Open GraphQL event subscriptions on this process',
    registers,
    collect() {
      this.set(sources.events.bus.subscribers());
    },
  });
  new Gauge({
    name: 'bill_progress_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting requests); absent on the embedded database',
    labelNames: ['state'],
    registers,
    collect() {
      this.reset();
      const pool = (sources.dataSource.driver as { master?: { totalCount?: number; idleCount?: number; waitingCount?: number } }).master;
      if (typeof pool?.totalCount !== 'number') return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount ?? 0);
      this.set({ state: 'waiting' }, pool.waitingCount ?? 0);
    },
  });
}
