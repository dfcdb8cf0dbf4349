import type { DataSource } from 'typeorm';
import { SyncStateEntity } from '../../entities/sync-state.entity';

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
}

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
  }

  report(): FreshnessReport {
    const now = this.now();
    const staleAfterMs = this.intervalSeconds * STALE_AFTER_INTERVALS * 1000;
    const stale = this.intervalSeconds > 0 && now.getTime() - (this.lastSuccessAt ?? this.since).getTime() > staleAfterMs;
    const asOf = this.source === 'snapshot' ? this.snapshotAsOf : this.lastSuccessAt ? this.lastSuccessAt.toISOString().slice(0, 10) : null;
    return { source: this.source, asOf, lastSyncAt: this.lastSyncAt ?? this.lastSuccessAt, lastSuccessAt: this.lastSuccessAt, stale };
  }
}
