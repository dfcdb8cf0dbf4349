import type { EntityManager } from 'typeorm';
import type { ScheduledSighting } from '../events/payloads';
import { titleBeforeRoyalAssent } from './bill-title';

/**
 * Which days of sightings a refresh of `day` announces, given the day last refreshed: after a
 * refresh of an earlier day, every sighting since that day, including those of that day a sync
 * recorded after its refresh (the ones it announced are passed over); on the same day again, that
 * day's not yet announced; on a first refresh or a day gone back (a replay), that day's.
 */
export function sightingWindow(lastRefreshed: string | null, day: string): { from: string; announcedOn: string | null } {
  if (lastRefreshed !== null && lastRefreshed < day) return { from: lastRefreshed, announcedOn: lastRefreshed };
  return { from: day, announcedOn: lastRefreshed === day ? day : null };
}

/**
 * The scheduled sittings first seen in the window (one bill.stage_scheduled each): a new date, or
 * a stage's date moved (`previouslyScheduledFor`: the stage's date the same sync superseded).
 * Those already announced on `announcedOn` are left out, so a refresh that runs again, here or on
 * another instance, announces a sighting once.
 */
export async function scheduledSightings(manager: EntityManager, day: string, lastRefreshed: string | null): Promise<ScheduledSighting[]> {
  const { from, announcedOn } = sightingWindow(lastRefreshed, day);
  const rows = (await manager.query(
    `SELECT s.id, s.bill_id, b.title, b.originating_house, s.bill_stage_id, s.stage, s.house, s.scheduled_for::text AS scheduled_for, s.first_seen_day::text AS first_seen,
            (SELECT p.scheduled_for::text FROM scheduled_sitting p
              WHERE p.bill_stage_id = s.bill_stage_id AND p.id < s.id AND p.superseded_day = s.first_seen_day ORDER BY p.id DESC LIMIT 1) AS previously_scheduled_for
       FROM scheduled_sitting s JOIN bill b ON b.id = s.bill_id
      WHERE s.first_seen_day >= $1 AND s.first_seen_day <= $2
        AND ($3::date IS NULL OR NOT EXISTS (SELECT 1 FROM service_event e WHERE e.service_day = $3 AND e.type = 'bill.stage_scheduled' AND e.bill_id = s.bill_id AND (e.data->>'sitting_id')::int = s.id))
      ORDER BY s.first_seen_day, s.first_seen_at, s.id`,
    [from, day, announcedOn],
  )) as {
    id: number;
    bill_id: number;
    title: string;
    originating_house: string;
    bill_stage_id: number;
    stage: string;
    house: string;
    scheduled_for: string;
    first_seen: string;
    previously_scheduled_for: string | null;
  }[];
  return rows.map((r) => ({
    sittingId: r.id,
    billId: r.bill_id,
    // the bill is before Parliament: its title as it stood then, not a final "… Act"
    title: titleBeforeRoyalAssent(r.title, r.originating_house),
    stageRecordId: r.bill_stage_id,
    stage: r.stage,
    house: r.house,
    scheduledFor: r.scheduled_for,
    firstSeen: r.first_seen,
    previouslyScheduledFor: r.previously_scheduled_for,
  }));
}
