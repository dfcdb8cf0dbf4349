import { addDays } from '../common/dates';
import { isImminent, timeBucket } from '../events/prediction-point';
import type { PredictionResult } from './prediction-result';

import type { TimeBucket as Bucket, UrgencyLevel } from '../vocabulary';

export type { UrgencyLevel };
export type TimeBucket = Bucket | null;

export const urgencyLevel = (days: number): UrgencyLevel => (days <= 1 ? 'critical' : days <= 3 ? 'urgent' : days <= 7 ? 'soon' : days <= 30 ? 'tracking' : 'none');

// the imminent list's buckets are also what prediction.updated watches (src/events/rules.ts)
export { timeBucket };

/**
 * 0–1, rising with nearness and probability: the next-stage probability × (1 − days/30),
 * floored at 0. A certain stage today scores 1; anything 30 or more days off scores 0.
 */
export const urgencyScore = (days: number, nextStageProbability: number): number => Math.round(nextStageProbability * Math.max(0, 1 - days / 30) * 10_000) / 10_000;

export interface ImminentBill {
  prediction: PredictionResult;
  timelineEtaDays: number;
  countdownDays: number;
  predictedDate: string;
  urgencyLevel: UrgencyLevel;
  timeBucket: TimeBucket;
  urgencyScore: number;
}

/**
 * Live bills whose predicted next stage falls within `daysAhead` days with a next-stage
 * probability of at least `minProbability`, most urgent first (soonest, then most likely).
 */
export function imminentBills(nowcasts: readonly PredictionResult[], today: string, daysAhead: number, minProbability: number): ImminentBill[] {
  return nowcasts
    .filter((n) => isImminent(n.timelineEtaDays, n.probabilities.next_stage_30d, daysAhead, minProbability))
    .map((n) => {
      const days = n.timelineEtaDays!;
      return {
        prediction: n,
        timelineEtaDays: days,
        countdownDays: days,
        predictedDate: addDays(today, Math.round(days)),
        urgencyLevel: urgencyLevel(days),
        timeBucket: timeBucket(days),
        urgencyScore: urgencyScore(days, n.probabilities.next_stage_30d),
      };
    })
    .sort((a, b) => a.countdownDays - b.countdownDays || b.urgencyScore - a.urgencyScore || a.prediction.billId - b.prediction.billId);
}
