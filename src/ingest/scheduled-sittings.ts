import type { EntityManager } from 'typeorm';
import { ScheduledSittingEntity } from '../db/entities/scheduled-sitting.entity';
import { insertJsonRows } from '../db/json-rows';
import type { BillRecord } from './bill-record';

interface StandingRow {
  id: number;
  bill_stage_id: number;
  scheduled_for: string;
}

const keyOf = (billStageId: number, date: string) => `${billStageId}@${date}`;

/**
 * Keeps the record of the stage sittings the source dates after `today` (the sync's day): the
 * Bills API shows a sitting once it is set down but keeps no history of when it was, so the service
 * notes each such date with the day it first saw it. A standing future date that a bill's record no
 * longer lists (moved, or taken away) is superseded, and a new date gets its own row: the rows are
 * the record of the moves. Dates on or before `today` are left as they are. Compares every bill of
 * the batch, changed or not (a database that stored a bill before it kept this record learns its
 * dates at the next sync), and writes only differences: the same data again writes nothing.
 * Returns how many dates it recorded.
 */
export async function recordScheduledSittings(manager: EntityManager, batch: BillRecord[], today: string, now: Date): Promise<number> {
  if (!batch.length) return 0;
  const standing = (await manager.query(
    `SELECT id, bill_stage_id, scheduled_for::text AS scheduled_for FROM scheduled_sitting
     WHERE bill_id = ANY($1) AND superseded_at IS NULL AND scheduled_for > $2`,
    [batch.map((r) => r.billId), today],
  )) as StandingRow[];
  const standingKeys = new Set(standing.map((row) => keyOf(row.bill_stage_id, row.scheduled_for)));

  const wanted = batch.flatMap((r) =>
    r.stages.flatMap((s) =>
      s.dates.filter((date) => date > today).map((date) => ({ billId: r.billId, billStageId: s.billStageId, stage: s.stage, house: s.house, date })),
    ),
  );
  const wantedKeys = new Set(wanted.map((w) => keyOf(w.billStageId, w.date)));

  const gone = standing.filter((row) => !wantedKeys.has(keyOf(row.bill_stage_id, row.scheduled_for))).map((row) => row.id);
  if (gone.length) await manager.query(`UPDATE scheduled_sitting SET superseded_at = $2, superseded_day = $3 WHERE id = ANY($1)`, [gone, now, today]);

  const fresh = wanted.filter((w) => !standingKeys.has(keyOf(w.billStageId, w.date)));
  await insertJsonRows(
    manager,
    ScheduledSittingEntity,
    fresh.map((w) => ({ billId: w.billId, billStageId: w.billStageId, stage: w.stage, house: w.house, scheduledFor: w.date, firstSeenAt: now, firstSeenDay: today })),
  );
  return fresh.length;
}
