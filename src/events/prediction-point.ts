import { addDays } from '../common/dates';
import type { TimeBucket } from '../vocabulary';

/**
 * A bill's headline nowcast on one day, and what the event rules read from a run of them. The
 * rules live with the events; alerts and the imminent list (src/services) read the same
 * definitions, so an alert and an event never disagree on what a spike or an imminent stage is.
 */
export interface PredictionPoint {
  referenceDate: string;
  modelVersion: number;
  royalAssent: number;
  nextStage30d: number;
  timelineEtaDays: number | null;
}

/** The window of a probability spike (events and `spike` thresholds alike). */
export const SPIKE_WINDOW_DAYS = 7;

/**
 * How much a probability rose within the window ending with the last point: the last value minus
 * the lowest in effect in the window (the last point before it started counts, as it was still in
 * effect then). `points` oldest first; 0 when there is nothing earlier to compare with.
 */
export function riseWithin(points: readonly PredictionPoint[], key: 'royalAssent' | 'nextStage30d', days = SPIKE_WINDOW_DAYS): number {
  if (points.length < 2) return 0;
  const last = points[points.length - 1];
  const start = addDays(last.referenceDate, -days);
  let lowest = Infinity;
  for (let i = points.length - 2; i >= 0; i--) {
    lowest = Math.min(lowest, points[i][key]);
    if (points[i].referenceDate <= start) break;
  }
  return Math.max(0, last[key] - lowest);
}

/** The larger rise of the Royal Assent and next-30-day probabilities within the spike window. */
export const spikeRise = (points: readonly PredictionPoint[]): number => Math.max(riseWithin(points, 'royalAssent'), riseWithin(points, 'nextStage30d'));

/** The imminent list's time_bucket (2.6) of an ETA: today < 1 day, week ≤ 7, two_weeks ≤ 14, month ≤ 30, else null. */
export const timeBucket = (days: number): TimeBucket | null => (days < 1 ? 'today' : days <= 7 ? 'week' : days <= 14 ? 'two_weeks' : days <= 30 ? 'month' : null);

/** Defaults of the imminent list (2.6), which the imminent_stage_change event watches too. */
export const IMMINENT_DEFAULTS = { daysAhead: 7, minProbability: 0.5 } as const;

/** Whether a nowcast's next stage is due within `daysAhead` days with at least `minProbability`. */
export const isImminent = (timelineEtaDays: number | null, nextStageProbability: number, daysAhead: number, minProbability: number): boolean =>
  timelineEtaDays !== null && timelineEtaDays <= daysAhead && nextStageProbability >= minProbability;
