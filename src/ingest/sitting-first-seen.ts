import type { EntityManager } from 'typeorm';
import type { BillRecord } from './bill-record';

interface StoredStage {
  id: number;
  first_date: string | null;
  seen: string | null;
}

/**
 * The day each stage record of the bills about to be rewritten first had its first sitting date
 * as it stands, by bill-stage id: kept from the stored record when its first date has not changed
 * (a bill's stages are rewritten whole whenever anything of the bill changes), else `today`, the
 * day of this sync. Null for a record with no sitting. `today` is null on a first sync: what the
 * service saw before it followed anything is not news.
 */
export async function sittingFirstSeenDays(manager: EntityManager, bills: readonly BillRecord[], today: string | null): Promise<Map<number, string | null>> {
  const stored = (await manager.query(
    `SELECT id, sitting_dates[1]::text AS first_date, sitting_first_seen_day::text AS seen FROM bill_stage WHERE bill_id = ANY($1)`,
    [bills.map((b) => b.billId)],
  )) as StoredStage[];
  const storedById = new Map(stored.map((row) => [row.id, row]));
  const days = new Map<number, string | null>();
  for (const bill of bills) {
    for (const stage of bill.stages) {
      const firstDate = stage.dates[0] ?? null;
      const before = storedById.get(stage.billStageId);
      days.set(stage.billStageId, firstDate === null ? null : before?.first_date === firstDate ? before.seen : today);
    }
  }
  return days;
}
