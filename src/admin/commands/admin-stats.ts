import type { DataSource } from 'typeorm';

/* The `stats` command: counts, the serving model and the last sync. */

export interface AdminStats {
  bills: number;
  users: number;
  keys: { active: number; revoked: number };
  /** the newest stored model version, or null before the first training */
  model_version: { id: number; training_cutoff: string; created_at: string } | null;
  /** the newest completed sync, or null before the first */
  last_sync: { source: string; completed_at: string; as_of: string | null; bills_seen: number; bills_changed: number } | null;
}

/** What an operator checks first: how much is stored, which model, how fresh the data is. */
export async function collectStats(dataSource: DataSource): Promise<AdminStats> {
  const [counts] = (await dataSource.query(
    `SELECT (SELECT count(*) FROM bill)::int AS bills,
            (SELECT count(*) FROM account)::int AS users,
            (SELECT count(*) FROM api_key WHERE revoked_at IS NULL)::int AS active,
            (SELECT count(*) FROM api_key WHERE revoked_at IS NOT NULL)::int AS revoked`,
  )) as { bills: number; users: number; active: number; revoked: number }[];
  const [model] = (await dataSource.query(
    // the version serving (model-versions.ts), not merely the newest: a retrain may have been rejected
    `SELECT id, training_cutoff::text AS training_cutoff, created_at FROM model_version
     WHERE status = 'accepted' AND promoted_at IS NOT NULL ORDER BY promoted_at DESC, id DESC LIMIT 1`,
  )) as { id: number; training_cutoff: string; created_at: Date }[];
  const [sync] = (await dataSource.query(
    `SELECT source_name, completed_at, as_of::text AS as_of, bills_seen, bills_changed FROM sync_state ORDER BY completed_at DESC LIMIT 1`,
  )) as { source_name: string; completed_at: Date; as_of: string | null; bills_seen: number; bills_changed: number }[];
  return {
    bills: counts.bills,
    users: counts.users,
    keys: { active: counts.active, revoked: counts.revoked },
    model_version: model ? { id: model.id, training_cutoff: model.training_cutoff, created_at: new Date(model.created_at).toISOString() } : null,
    last_sync: sync
      ? {
          source: sync.source_name,
          completed_at: new Date(sync.completed_at).toISOString(),
          as_of: sync.as_of,
          bills_seen: sync.bills_seen,
          bills_changed: sync.bills_changed,
        }
      : null,
  };
}
