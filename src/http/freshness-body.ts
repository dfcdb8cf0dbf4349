import type { FreshnessReport } from '../ingest/freshness';

/** The `data` object of /readyz: how fresh the served data is, in the REST spelling. */
export function freshnessBody(report: FreshnessReport) {
  return {
    source: report.source,
    as_of: report.asOf,
    last_sync_at: report.lastSyncAt?.toISOString() ?? null,
    last_success_at: report.lastSuccessAt?.toISOString() ?? null,
    stale: report.stale,
  };
}
