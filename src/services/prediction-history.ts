import type { EntityManager } from 'typeorm';
import { PredictionSnapshotEntity } from '../db/entities/prediction-snapshot.entity';
import { insertJsonRows, selectJsonRows } from '../db/json-rows';
import type { PredictionPoint } from '../events/prediction-point';
import type { PredictionResult } from './prediction-result';

/** Snapshots a history reaches back over: enough for the 7-day spike window and the 3-refresh trend. */
export const HISTORY_DEPTH = 20;

export const pointOf = (n: PredictionResult): PredictionPoint => ({
  referenceDate: n.referenceDate,
  modelVersion: n.model.version,
  royalAssent: n.probabilities.royal_assent,
  nextStage30d: n.probabilities.next_stage_30d,
  timelineEtaDays: n.timelineEtaDays,
});

const samePoint = (a: PredictionPoint, b: PredictionPoint) =>
  a.modelVersion === b.modelVersion && a.referenceDate === b.referenceDate && a.royalAssent === b.royalAssent && a.nextStage30d === b.nextStage30d && a.timelineEtaDays === b.timelineEtaDays;

export interface BillHistory {
  /** the stored snapshots this nowcast is compared with, oldest first */
  earlier: PredictionPoint[];
  /** `earlier` then today's nowcast */
  points: PredictionPoint[];
}

/** Stored snapshots of the bills up to `today`, oldest first, at most HISTORY_DEPTH each. */
async function storedHistories(manager: EntityManager, billIds: readonly number[], today: string): Promise<Map<number, PredictionPoint[]>> {
  const rows = await selectJsonRows<{ bill_id: number; reference_date: string; model_version: number; royal_assent: number; next_stage30d: number; timeline_eta_days: number | null }>(
    manager,
    `SELECT id, bill_id, reference_date::text AS reference_date, model_version, royal_assent, next_stage30d, timeline_eta_days FROM (
       SELECT s.*, row_number() OVER (PARTITION BY bill_id ORDER BY reference_date DESC, id DESC) AS position
       FROM prediction_snapshot s WHERE bill_id = ANY($1) AND reference_date <= $2
     ) recent WHERE position <= $3`,
    [billIds, today, HISTORY_DEPTH],
    'r.bill_id, r.reference_date, r.id',
  );
  const histories = new Map<number, PredictionPoint[]>(billIds.map((id) => [id, []]));
  for (const r of rows) {
    histories.get(r.bill_id)!.push({ referenceDate: r.reference_date, modelVersion: r.model_version, royalAssent: r.royal_assent, nextStage30d: r.next_stage30d, timelineEtaDays: r.timeline_eta_days });
  }
  return histories;
}

/**
 * Bills whose stored histories one statement reads (at most HISTORY_DEPTH rows each), and snapshots
 * one statement inserts: on the embedded database a statement and the parsing of its rows hold the
 * event loop, so thousands of bills are read and written a few hundred rows at a time.
 */
const HISTORY_BILLS_PER_READ = 25;
const SNAPSHOTS_PER_INSERT = 100;

/**
 * Keeps each bill's nowcast as a snapshot unless the last one stored already says the same, and
 * returns each bill's history ending with it. Reads and inserts a bounded slice per statement. Without
 * `includeToday` the snapshots dated today are not among the earlier points: a refresh for a new
 * day compares with the days before, whatever a check (or an earlier replay) stored for today.
 */
export async function recordSnapshots(manager: EntityManager, nowcasts: readonly PredictionResult[], options: { includeToday: boolean }): Promise<Map<number, BillHistory>> {
  const result = new Map<number, BillHistory>();
  if (!nowcasts.length) return result;
  const today = nowcasts[0].referenceDate;
  const stored = new Map<number, PredictionPoint[]>();
  for (let i = 0; i < nowcasts.length; i += HISTORY_BILLS_PER_READ) {
    const slice = nowcasts.slice(i, i + HISTORY_BILLS_PER_READ).map((n) => n.billId);
    for (const [billId, points] of await storedHistories(manager, slice, today)) stored.set(billId, points);
  }
  const rows: Partial<PredictionSnapshotEntity>[] = [];
  for (const n of nowcasts) {
    const history = stored.get(n.billId)!;
    const current = pointOf(n);
    const last = history[history.length - 1];
    const changed = !last || !samePoint(last, current);
    // today's nowcast is the last point: a stored copy of it is not also an earlier one
    const earlier = options.includeToday ? (changed ? history : history.slice(0, -1)) : history.filter((p) => p.referenceDate < today);
    if (changed) rows.push({ billId: n.billId, ...current });
    result.set(n.billId, { earlier, points: [...earlier, current] });
  }
  await insertJsonRows(manager, PredictionSnapshotEntity, rows, { rowsPerStatement: SNAPSHOTS_PER_INSERT });
  return result;
}
