import type { DataSource } from 'typeorm';
import { daysBetween } from '../common/dates';
import { scheduledAt } from '../model/serve/next-stage';
import type { Nowcast } from '../model/serve/predictor';
import { isOneOf, MAIN_STAGES } from '../vocabulary';

/** A date a stage was seen set down for, as the service recorded it (src/ingest/scheduled-sittings.ts). */
export interface SittingRecord {
  stage: string;
  scheduledFor: string;
  /** the service's day it first saw the date */
  firstSeenDay: string;
  /** the service's day the date was moved or taken away; null while it stands */
  supersededDay: string | null;
  /** the first sitting of its stage record in the data now; null when it has none (or the record is gone) */
  stageFirstSat: string | null;
}

/** Every recorded date of each bill's stages, moved ones included: a past-date nowcast reads the record as it stood. */
export async function loadScheduledSittings(dataSource: Pick<DataSource, 'query'>, billIds: readonly number[]): Promise<Map<number, SittingRecord[]>> {
  const rows = (await dataSource.query(
    `SELECT s.bill_id, s.stage, s.scheduled_for::text AS scheduled_for, s.first_seen_day::text AS first_seen_day, s.superseded_day::text AS superseded_day,
            (SELECT min(d)::text FROM bill_stage bs, unnest(bs.sitting_dates) d WHERE bs.id = s.bill_stage_id) AS stage_first_sat
       FROM scheduled_sitting s WHERE s.bill_id = ANY($1)`,
    [billIds],
  )) as { bill_id: number; stage: string; scheduled_for: string; first_seen_day: string; superseded_day: string | null; stage_first_sat: string | null }[];
  const byBill = new Map<number, SittingRecord[]>();
  for (const r of rows) {
    const sittings = byBill.get(r.bill_id) ?? [];
    sittings.push({ stage: r.stage, scheduledFor: r.scheduled_for, firstSeenDay: r.first_seen_day, supersededDay: r.superseded_day, stageFirstSat: r.stage_first_sat });
    byBill.set(r.bill_id, sittings);
  }
  return byBill;
}

/**
 * The date of the bill's next main stage as the service knew it on `referenceDate`: the soonest
 * date after it that stood that day (first seen by then, not yet moved) of a main stage record that
 * had not sat by then. Null when none was scheduled. A later sighting or move never changes the
 * answer for an earlier date (the nowcast rule).
 */
export function scheduledNextStage(sittings: readonly SittingRecord[], referenceDate: string): string | null {
  let next: string | null = null;
  for (const s of sittings) {
    const stood = s.firstSeenDay <= referenceDate && (s.supersededDay === null || s.supersededDay > referenceDate) && s.scheduledFor > referenceDate;
    const stageToCome = isOneOf(MAIN_STAGES, s.stage) && (s.stageFirstSat === null || s.stageFirstSat > referenceDate);
    if (stood && stageToCome && (next === null || s.scheduledFor < next)) next = s.scheduledFor;
  }
  return next;
}

/** What the ETA of a nowcast rests on: a scheduled sitting's date, or null for the model's estimate. */
export interface ScheduledEta {
  timelineEtaScheduledFor: string | null;
}

/**
 * A nowcast whose distribution of the days to the next stage is moved by its bill's scheduled
 * next stage, when a live bill has one on its reference date (next-stage.ts): the ETA is the days
 * to the sitting and next_stage_30d follows from it. Else the model's nowcast, unchanged.
 */
export function withScheduledEta<T extends Nowcast>(nowcast: T, sittings: readonly SittingRecord[] = []): T & ScheduledEta {
  const scheduledFor = nowcast.status === 'live' ? scheduledNextStage(sittings, nowcast.referenceDate) : null;
  if (!scheduledFor) return { ...nowcast, timelineEtaScheduledFor: null };
  const next = scheduledAt(nowcast.nextStageAtAll, daysBetween(nowcast.referenceDate, scheduledFor));
  return { ...nowcast, probabilities: { ...nowcast.probabilities, next_stage_30d: next.within30 }, timelineEtaDays: next.etaDays, timelineEtaScheduledFor: scheduledFor };
}

const percent = (p: number) => `${Math.round(p * 100)}%`;

/**
 * The ETA's explanation in words: what it rests on and what it means beside next_stage_30d,
 * both read from one distribution of the days to the next stage.
 */
export function timelineEtaExplanation(n: Pick<Nowcast, 'timelineEtaDays' | 'nextStageAtAll' | 'probabilities'> & ScheduledEta): string | null {
  if (n.timelineEtaDays === null) return null;
  const within = n.probabilities.next_stage_30d;
  const moves = `a ${percent(n.nextStageAtAll)} chance of a next main stage at all, ${percent(within)} within 30 days`;
  if (n.timelineEtaScheduledFor) return `scheduled for ${n.timelineEtaScheduledFor}: the days to that sitting, if it is held; ${moves}`;
  const ifMoves = n.nextStageAtAll > 0 ? Math.min(1, within / n.nextStageAtAll) : 0;
  return `estimated by the model from the bill's history: the median wait if the bill moves (${percent(ifMoves)} of its moving within 30 days, if it moves); ${moves}`;
}
