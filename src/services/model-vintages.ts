import type { DataSource } from 'typeorm';
import { ModelVersionEntity } from '../db/entities/model-version.entity';
import type { SessionFact } from '../model/serve/bill-facts';
import { addDays } from '../common/dates';
import { FEATURE_SCHEMA_VERSION } from '../model/serve/features';
import { Predictor } from '../model/serve/predictor';
import { sessionsKnownAt } from '../model/train/train';
import { keepWithin } from '../common/bounded-map';

/**
 * Which model made an answer: its version, the last date whose facts it learned from, and whether
 * the answer's reference date is on or after that date (out of sample: the model saw nothing the
 * date could not have known).
 */
export interface ModelProvenance {
  version: number;
  trainedThrough: string;
  outOfSample: boolean;
}

/** A version that may answer a past date: accepted, of the code's feature schema. */
export interface VersionCutoff {
  id: number;
  trainingCutoff: string;
}

/**
 * Vintage predictors kept in memory at most, the least recently used going first: enough for one
 * a session of the data (16 today), so that nowcasts at dates of many sessions do not load the same
 * vintages again and again; each holds about 0.2 MB of networks.
 */
const LOADED_VINTAGES = 64;

/** A session's vintage: trained on the facts dated before the session began. */
export interface VintagePlan {
  sessionId: number;
  cutoff: string;
}

/**
 * The vintages the sessions call for, newest session first: one per session that began before
 * `today`, trained through the day before it began. A session before which no session had ended
 * gets none: with no ended session there is no fate label to learn from.
 */
export function plannedVintages(sessions: readonly SessionFact[], today: string): VintagePlan[] {
  return sessions
    .filter((s): s is SessionFact & { startDate: string } => Boolean(s.startDate) && s.startDate! <= today)
    .map((s) => ({ sessionId: s.id, cutoff: addDays(s.startDate, -1) }))
    .filter((plan) => sessionsKnownAt(sessions, plan.cutoff).some((s) => s.endDate))
    .sort((a, b) => (a.cutoff < b.cutoff ? 1 : a.cutoff > b.cutoff ? -1 : 0));
}

/**
 * The newest version trained only on facts dated on or before `date`: the latest cutoff on or
 * before it (the highest id among equal cutoffs), or null when none is that old.
 */
export function versionFor(date: string, versions: readonly VersionCutoff[]): VersionCutoff | null {
  let best: VersionCutoff | null = null;
  for (const v of versions) {
    if (v.trainingCutoff > date) continue;
    if (!best || v.trainingCutoff > best.trainingCutoff || (v.trainingCutoff === best.trainingCutoff && v.id > best.id)) best = v;
  }
  return best;
}

/**
 * The stored versions that may answer past dates, and their predictors, loaded on first use and
 * bounded in number: the chart of an old bill loads one or two, not every vintage.
 */
export class VintageShelf {
  private versions: VersionCutoff[] = [];
  private readonly loaded = new Map<number, Promise<Predictor>>();

  constructor(private readonly dataSource: DataSource) {}

  /** Reads which versions exist (cheap: ids and cutoffs). */
  async reload(): Promise<void> {
    const rows = (await this.dataSource.query(
      `SELECT id, training_cutoff::text AS training_cutoff FROM model_version WHERE feature_schema_version = $1 AND status = 'accepted' ORDER BY id`,
      [FEATURE_SCHEMA_VERSION],
    )) as { id: number; training_cutoff: string }[];
    this.versions = rows.map((r) => ({ id: r.id, trainingCutoff: r.training_cutoff }));
  }

  /** Records a version saved by this process without waiting for the next reload. */
  add(version: VersionCutoff): void {
    if (!this.versions.some((v) => v.id === version.id)) this.versions = [...this.versions, version];
  }

  /** A token that changes whenever the set of versions does (answers kept under it stay right while it holds). */
  generation(): string {
    return String(this.versions.length ? this.versions[this.versions.length - 1].id : 0) + `/${this.versions.length}`;
  }

  choose(date: string): VersionCutoff | null {
    return versionFor(date, this.versions);
  }

  /** The predictor of a stored version, read from the database on first use. */
  predictor(id: number): Promise<Predictor> {
    let predictor = this.loaded.get(id);
    if (!predictor) {
      predictor = this.dataSource
        .getRepository(ModelVersionEntity)
        .findOneByOrFail({ id })
        .then((v) => new Predictor(v.artifact));
      predictor.catch(() => this.loaded.get(id) === predictor && this.loaded.delete(id));
    }
    keepWithin(this.loaded, id, predictor, LOADED_VINTAGES, { refresh: true });
    return predictor;
  }
}
