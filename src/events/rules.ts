import { IMMINENT_DEFAULTS, isImminent, type PredictionPoint, spikeRise, timeBucket } from './prediction-point';
import type { EventType } from '../vocabulary';

/** The numbers of the event rules (issue 10's table; docs/api-events.md lists them). */
export const EVENT_RULES = {
  /**
   * prediction.updated: a move of the Royal Assent or next-30-day probability of at least this.
   * At 0.01, with any ETA move of a day, it fired for most live bills on most days of a replay
   * (the ETA drifts a little every day); docs/api-events.md gives the replay's figures.
   */
  updatedProbabilityMove: 0.02,
  /** prediction.high_probability: the Royal Assent probability crossing this upward */
  highProbability: 0.8,
  /** prediction.probability_spike: a rise of at least this within SPIKE_WINDOW_DAYS */
  spikeRise: 0.15,
  /** prediction.trending_up: rises at each of this many refreshes in a row ... */
  trendRefreshes: 3,
  /** ... adding up to at least this */
  trendRise: 0.05,
} as const;

/** Probabilities are rounded to 6 places: a move of exactly a threshold must not miss it by a float's last bit. */
const EPSILON = 1e-9;
const atLeast = (value: number, limit: number) => value >= limit - EPSILON;

export type PredictionEventType = Exclude<EventType, 'bill.stage_changed' | 'bill.stage_scheduled' | 'prediction.crossed_threshold'>;

/** Whether the ETA changed the imminent list's time bucket (a stage due today, this week, …); appearing or disappearing is a change. */
function etaBucketChanged(before: number | null, after: number | null): boolean {
  if (before === null || after === null) return before !== after;
  return timeBucket(before) !== timeBucket(after);
}

/** The Royal Assent probability rose at each of the last `trendRefreshes` points, by `trendRise` in all. */
export function trendingUp(points: readonly PredictionPoint[]): boolean {
  const n = EVENT_RULES.trendRefreshes;
  if (points.length < n + 1) return false;
  const recent = points.slice(-(n + 1));
  for (let i = 1; i < recent.length; i++) if (!(recent[i].royalAssent > recent[i - 1].royalAssent)) return false;
  return atLeast(recent[n].royalAssent - recent[0].royalAssent, EVENT_RULES.trendRise);
}

const spiking = (points: readonly PredictionPoint[]) => atLeast(spikeRise(points), EVENT_RULES.spikeRise);
/** On the imminent list at its defaults, as of the point's own day. */
const imminent = (p: PredictionPoint) => isImminent(p.timelineEtaDays, p.nextStage30d, IMMINENT_DEFAULTS.daysAhead, IMMINENT_DEFAULTS.minProbability);

/**
 * The prediction events a bill's new nowcast emits, given its history (`points`, oldest first,
 * ending with the new nowcast). A bill seen for the first time has nothing to compare with and
 * emits none. Conditions over time (spike, trend) fire when they begin to hold, not on every
 * refresh while they hold, like a threshold that re-arms.
 */
export function predictionEvents(points: readonly PredictionPoint[]): PredictionEventType[] {
  if (points.length < 2) return [];
  const current = points[points.length - 1];
  const previous = points[points.length - 2];
  const earlier = points.slice(0, -1);
  const types: PredictionEventType[] = [];
  if (
    atLeast(Math.abs(current.royalAssent - previous.royalAssent), EVENT_RULES.updatedProbabilityMove) ||
    atLeast(Math.abs(current.nextStage30d - previous.nextStage30d), EVENT_RULES.updatedProbabilityMove) ||
    etaBucketChanged(previous.timelineEtaDays, current.timelineEtaDays)
  ) {
    types.push('prediction.updated');
  }
  if (imminent(current) && !imminent(previous)) types.push('prediction.imminent_stage_change');
  if (previous.royalAssent < EVENT_RULES.highProbability && atLeast(current.royalAssent, EVENT_RULES.highProbability)) types.push('prediction.high_probability');
  if (spiking(points) && !spiking(earlier)) types.push('prediction.probability_spike');
  if (trendingUp(points) && !trendingUp(earlier)) types.push('prediction.trending_up');
  return types;
}
