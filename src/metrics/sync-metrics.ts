import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Seconds: a sync that finds nothing new takes about a second; a full first sync minutes. */
const SYNC_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900];

/** What the sync metrics read of the data's freshness (src/ingest/freshness.ts's DataFreshness). */
export interface SyncFreshness {
  report(): { lastSuccessAt: Date | null };
  onSyncEnded(listener: (outcome: 'synced' | 'failed', seconds: number) => void): void;
}

/**
 * The freshness of the data as metrics: when a sync last succeeded (any instance), and the
 * scheduled syncs this process ran, by outcome and time.
 */
export function registerSyncMetrics(registry: Registry, freshness: SyncFreshness): void {
  const registers = [registry];
  new Gauge({
    name: 'bill_progress_sync_last_success_timestamp_seconds',
    help: 'When a sync of the bill source last completed, by any instance (Unix seconds); absent before the first',
    registers,
    collect() {
      this.reset();
      const at = freshness.report().lastSuccessAt;
      if (at) this.set(at.getTime() / 1000);
    },
  });
  const failures = new Counter({ name: 'bill_progress_sync_failures_total', help: 'Scheduled syncs of this process that failed (the stored data stayed served)', registers });
  const duration = new Histogram({ name: 'bill_progress_sync_duration_seconds', help: 'Scheduled syncs of this process, by outcome', labelNames: ['outcome'], buckets: SYNC_BUCKETS, registers });
  freshness.onSyncEnded((outcome, seconds) => {
    if (outcome === 'failed') failures.inc();
    duration.observe({ outcome }, seconds);
  });
}
