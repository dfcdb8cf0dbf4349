import type { DataSource } from 'typeorm';
import { SyncStateEntity } from '../db/entities/sync-state.entity';
import { KNOWN_SESSIONS } from './bills-api/sessions';

/** The job_run name under which scheduled syncs claim their interval (see src/jobs/scheduled-sync.ts). */
export const SYNC_JOB = 'bills-sync';

/** Intervals without a successful sync after which the data is called stale. */
export const STALE_AFTER_INTERVALS = 3;

/** How fresh the served data is, as /readyz, GraphQL `serviceStatus.data` and the dashboard show it. */
export interface FreshnessReport {
  source: 'live' | 'snapshot';
  /** the date the data is complete up to: a snapshot's own date, or the day of the last successful live sync */
  asOf: string | null;
  /** the last sync started by any instance (scheduled or not), or null */
  lastSyncAt: Date | null;
  /** the last sync that completed, by any instance or the sync command, or null */
  lastSuccessAt: Date | null;
  /** scheduled syncs are on and none has succeeded for STALE_AFTER_INTERVALS intervals */
  stale: boolean;
  /** sessions whose dates the service worked out itself rather than knew (see src/ingest/session-ends.ts) */
  sessionsInferred: InferredSession[];
  /** the recorded dissolutions of sessions (from the source, or an operator's announce-dissolution), by session */
  dissolutions: RecordedDissolution[];
}

/** A session's end by a dissolution, and the day it became known (see src/db/entities/session-dissolution.entity.ts). */
export interface RecordedDissolution {
  sessionId: number;
  name: string | null;
  announced: string;
  endDate: string;
  recordedBy: 'source' | 'operator';
  recordedAt: Date;
}

/** Every recorded dissolution, by session. */
export async function readDissolutions(dataSource: DataSource): Promise<RecordedDissolution[]> {
  const rows = (await dataSource.query(
    `SELECT d.session_id AS "sessionId", s.name, d.announced::text AS announced, d.end_date::text AS "endDate", d.recorded_by AS "recordedBy", d.recorded_at AS "recordedAt"
       FROM session_dissolution d LEFT JOIN parliamentary_session s ON s.id = d.session_id ORDER BY d.session_id`,
  )) as (Omit<RecordedDissolution, 'recordedAt'> & { recordedAt: Date | string })[];
  return rows.map((d) => ({ ...d, name: d.name ?? null, recordedAt: new Date(d.recordedAt) }));
}

/**
 * A session newer than the built-in table (its first sitting is the first one seen, its end null
 * while it runs), or one whose end was inferred when a later session appeared.
 */
export interface InferredSession {
  sessionId: number;
  name: string;
  firstSittingDate: string | null;
  endDate: string | null;
  /** when this database first recorded the session */
  learnedAt: Date | null;
  /** when its end was inferred; null while it runs */
  endInferredAt: Date | null;
}

const LAST_KNOWN_SESSION = Math.max(...KNOWN_SESSIONS.map((s) => s.sessionId));

/**
 * What this process knows of the data's freshness. Syncs record themselves here as they start and
 * end; `load` reads what other instances and the sync command did from the shared database (the
 * server calls it on its sync-state poll), so every answer is read from memory.
 */
export class DataFreshness {
  private lastSyncAt: Date | null = null;
  private readonly listeners = new Set<(outcome: 'synced' | 'failed', seconds: number) => void>();
  private lastSuccessAt: Date | null = null;
  private snapshotAsOf: string | null = null;
  private sessionsInferred: InferredSession[] = [];
  private dissolutions: RecordedDissolution[] = [];
  /** when this process started watching: stale is counted from here while no sync ever succeeded */
  private readonly since: Date;

  constructor(
    readonly source: 'live' | 'snapshot',
    /** seconds between scheduled syncs; 0: none, and the data is never called stale */
    readonly intervalSeconds: number,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.since = now();
  }

  started(at: Date): void {
    if (!this.lastSyncAt || at > this.lastSyncAt) this.lastSyncAt = at;
  }

  succeeded(at: Date): void {
    if (!this.lastSuccessAt || at > this.lastSuccessAt) this.lastSuccessAt = at;
  }

  /** A scheduled sync of this process ended (for /metrics). */
  ended(outcome: 'synced' | 'failed', seconds: number): void {
    for (const listener of this.listeners) listener(outcome, seconds);
  }

  onSyncEnded(listener: (outcome: 'synced' | 'failed', seconds: number) => void): void {
    this.listeners.add(listener);
  }

  /** Reads the latest sync of any process from the database: its completion, the snapshot's date, the last claim of a scheduled sync. */
  async load(dataSource: DataSource): Promise<void> {
    const [latest] = await dataSource.getRepository(SyncStateEntity).find({ order: { completedAt: 'DESC' }, take: 1 });
    const [claim] = (await dataSource.query('SELECT claimed_at AS "claimedAt" FROM job_run WHERE name = $1', [SYNC_JOB])) as { claimedAt: Date | string }[];
    if (latest) this.succeeded(latest.completedAt);
    if (claim) this.started(new Date(claim.claimedAt));
    this.snapshotAsOf = latest?.asOf ?? null;
    const sessions = (await dataSource.query(
      `SELECT id, name, first_sitting_date::text AS first, end_date::text AS end, learned_at, end_inferred_at FROM parliamentary_session WHERE end_date_inferred OR id > $1 ORDER BY id`,
      [LAST_KNOWN_SESSION],
    )) as { id: number; name: string; first: string | null; end: string | null; learned_at: Date | string | null; end_inferred_at: Date | string | null }[];
    const at = (value: Date | string | null) => (value === null ? null : new Date(value));
    this.sessionsInferred = sessions.map((s) => ({ sessionId: s.id, name: s.name, firstSittingDate: s.first, endDate: s.end, learnedAt: at(s.learned_at), endInferredAt: at(s.end_inferred_at) }));
    this.dissolutions = await readDissolutions(dataSource);
  }

  report(): FreshnessReport {
    const now = this.now();
    const staleAfterMs = this.intervalSeconds * STALE_AFTER_INTERVALS * 1000;
    const stale = this.intervalSeconds > 0 && now.getTime() - (this.lastSuccessAt ?? this.since).getTime() > staleAfterMs;
    const asOf = this.source === 'snapshot' ? this.snapshotAsOf : this.lastSuccessAt ? this.lastSuccessAt.toISOString().slice(0, 10) : null;
    return { source: this.source, asOf, lastSyncAt: this.lastSyncAt ?? this.lastSuccessAt, lastSuccessAt: this.lastSuccessAt, stale, sessionsInferred: this.sessionsInferred, dissolutions: this.dissolutions };
  }
}
