import type { FreshnessReport } from '../../ingest/freshness';

/** The `data` object of /readyz: how fresh the served data is, in the REST spelling. */
export function freshnessBody(report: FreshnessReport) {
  return {
    source: report.source,
    as_of: report.asOf,
    last_sync_at: report.lastSyncAt?.toISOString() ?? null,
    last_success_at: report.lastSuccessAt?.toISOString() ?? null,
    stale: report.stale,
    // sessions whose dates the service worked out itself: a new session, or an end inferred from it
    sessions_inferred: report.sessionsInferred.map((s) => ({
      session_id: s.sessionId,
      name: s.name,
      first_sitting_date: s.firstSittingDate,
      end_date: s.endDate,
      learned_at: s.learnedAt?.toISOString() ?? null,
      end_inferred_at: s.endInferredAt?.toISOString() ?? null,
    })),
    // sessions whose end by a dissolution is known, from the day it was announced (a snapshot's, or recorded by an operator)
    dissolutions: report.dissolutions.map((d) => ({
      session_id: d.sessionId,
      name: d.name,
      announced: d.announced,
      end_date: d.endDate,
      recorded_by: d.recordedBy,
      recorded_at: d.recordedAt.toISOString(),
    })),
  };
}
