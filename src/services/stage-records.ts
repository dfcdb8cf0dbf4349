import type { EntityManager } from 'typeorm';
import { addDays } from '../common/dates';
import type { StageRecord } from '../events/payloads';
import { sightingWindow } from './scheduled-sightings';

/**
 * How far back a stage's sitting may be and still be reported when the Bills API shows it late:
 * the API records most sittings within days; one older than this that appears (a backfill of an
 * old bill's history) is not news to anyone following Parliament.
 */
export const LATE_STAGE_DAYS = 30;

/**
 * The stage records a refresh of `day` reports, one bill.stage_changed each:
 * - those whose first sitting falls in (since, day], `since` being the last refreshed day; a second
 *   refresh of the same day (new data) reports only the records the first did not;
 * - those a sync first saw since the last refreshed day (src/ingest/sitting-first-seen.ts) whose
 *   sitting was before the window and at most LATE_STAGE_DAYS before `day`: the Bills API often
 *   shows a sitting after the refresh of its day ran. Each is reported once: not when an event
 *   of the record since its sitting is in the log (which keeps more than LATE_STAGE_DAYS), so a
 *   replay, which reports a stage on the day it sat, does not report it again on the day it was seen.
 */
export async function stageRecords(manager: EntityManager, since: string, day: string, lastRefreshed: string | null): Promise<StageRecord[]> {
  const reportedToday =
    lastRefreshed === day
      ? `AND NOT EXISTS (SELECT 1 FROM service_event e WHERE e.service_day = $2 AND e.type = 'bill.stage_changed' AND e.bill_id = bill_stage.bill_id AND (e.data->>'stage_record_id')::int = bill_stage.id)`
      : '';
  const { from: seenFrom } = sightingWindow(lastRefreshed, day);
  const rows = (await manager.query(
    `SELECT id, bill_id, stage, house, sitting_dates[1]::text AS date FROM bill_stage
     WHERE sitting_dates[1] <= $2 AND (
       (sitting_dates[1] > $1 ${reportedToday})
       OR (sitting_first_seen_day >= $3 AND sitting_first_seen_day <= $2 AND sitting_dates[1] <= $1 AND sitting_dates[1] >= $4
           AND NOT EXISTS (SELECT 1 FROM service_event e WHERE e.type = 'bill.stage_changed' AND e.bill_id = bill_stage.bill_id
                             AND e.service_day >= bill_stage.sitting_dates[1] AND (e.data->>'stage_record_id')::int = bill_stage.id)))
     ORDER BY sitting_dates[1], bill_id, seq`,
    [since, day, seenFrom, addDays(day, -LATE_STAGE_DAYS)],
  )) as { id: number; bill_id: number; stage: string; house: string; date: string }[];
  return rows.map((r) => ({ billId: r.bill_id, stageRecordId: r.id, stage: r.stage, house: r.house, date: r.date }));
}
