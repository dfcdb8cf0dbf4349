import type { DataSource } from 'typeorm';
import { FEATURE_SCHEMA_VERSION } from '../model/serve/features';
import { badInput, notFound } from '../errors';

/**
 * Which model version serves, kept in the database so that every instance agrees: the accepted
 * version of the code's feature schema promoted last (model-promotions.ts follows it). Training a
 * version promotes it; a scheduled retrain promotes it only if it passed the champion/challenger
 * checks; `npm run admin -- promote` promotes any version of the schema (a rollback).
 */
export async function servedVersionId(dataSource: DataSource): Promise<number | null> {
  const rows = (await dataSource.query(
    `SELECT id FROM model_version WHERE feature_schema_version = $1 AND status = 'accepted' AND promoted_at IS NOT NULL
     ORDER BY promoted_at DESC, id DESC LIMIT 1`,
    [FEATURE_SCHEMA_VERSION],
  )) as { id: number }[];
  return rows[0]?.id ?? null;
}

/** Makes the version the one served, by database time (instances' clocks may differ). */
export async function markServed(dataSource: DataSource, id: number): Promise<void> {
  await dataSource.query(`UPDATE model_version SET status = 'accepted', promoted_at = clock_timestamp() WHERE id = $1`, [id]);
}

export interface ModelVersionListing {
  id: number;
  feature_schema_version: number;
  training_cutoff: string;
  created_at: string;
  status: string;
  promoted_at: string | null;
  serving: boolean;
  /** the champion/challenger figures of a scheduled retrain (null for a version trained by hand) */
  challenge: unknown;
  calibration_period: unknown;
  /** a session's vintage ({session_id}): trained on the facts dated before that session began, it answers dates of it; null for other versions */
  vintage: unknown;
}

/** `npm run admin -- models`: every version, newest first, with its figures and which one serves. */
export async function listModelVersions(dataSource: DataSource): Promise<{ serving: number | null; versions: ModelVersionListing[] }> {
  const serving = await servedVersionId(dataSource);
  const rows = (await dataSource.query(
    `SELECT id, feature_schema_version, training_cutoff::text AS training_cutoff, created_at, status, promoted_at,
            metrics -> 'challenge' AS challenge, metrics -> 'calibrationPeriod' AS calibration_period,
            metrics -> 'vintage' AS vintage
     FROM model_version ORDER BY id DESC`,
  )) as { id: number; feature_schema_version: number; training_cutoff: string; created_at: Date | string; status: string; promoted_at: Date | string | null; challenge: unknown; calibration_period: unknown; vintage: unknown }[];
  const iso = (d: Date | string) => new Date(d).toISOString();
  return {
    serving,
    versions: rows.map((r) => ({
      id: r.id,
      feature_schema_version: r.feature_schema_version,
      training_cutoff: r.training_cutoff,
      created_at: iso(r.created_at),
      status: r.status,
      promoted_at: r.promoted_at === null ? null : iso(r.promoted_at),
      serving: r.id === serving,
      challenge: r.challenge ?? null,
      calibration_period: r.calibration_period ?? null,
      vintage: r.vintage ?? null,
    })),
  };
}

/** `npm run admin -- promote VERSION`: serves that version on every instance (within their 2 s poll). */
export async function promoteModelVersion(dataSource: DataSource, version: unknown): Promise<{ serving: number; previous: number | null }> {
  const id = typeof version === 'number' ? version : typeof version === 'string' && /^\d+$/.test(version) ? Number(version) : NaN;
  if (!Number.isSafeInteger(id)) throw badInput('promote needs a model version id (see npm run admin -- models)', 'version');
  const rows = (await dataSource.query(`SELECT feature_schema_version FROM model_version WHERE id = $1`, [id])) as { feature_schema_version: number }[];
  if (!rows.length) throw notFound(`there is no model version ${id}`);
  if (rows[0].feature_schema_version !== FEATURE_SCHEMA_VERSION) {
    throw badInput(`model version ${id} has feature schema ${rows[0].feature_schema_version}; this code reads ${FEATURE_SCHEMA_VERSION}: it cannot serve`, 'version');
  }
  const previous = await servedVersionId(dataSource);
  await markServed(dataSource, id);
  return { serving: id, previous };
}
