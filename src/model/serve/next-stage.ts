/**
 * The days to a live bill's next main stage as one distribution, from which next_stage_30d and
 * the ETA are both read, so the two can never tell different stories.
 *
 * The distribution is over the intervals of ETA_BIN_EDGES and one more outcome: no next stage at
 * all. Its mass within NEXT_STAGE_DAYS is the calibrated next_stage_30d network's probability
 * (Platt-scaled on recent sessions, the figure the card scores); how that mass spreads over the
 * intervals within the 30 days, and how the rest splits between the later intervals and no next
 * stage, are the ETA networks' shares. next_stage_30d is its probability of 30 days or less; the
 * ETA its median given that the bill moves. So, for every live bill:
 *
 *   ETA ≤ 30 days  ⇔  next_stage_30d ≥ ½ × P(a next stage at all)
 *
 * that is, the ETA falls within 30 days exactly when, if the bill moves, it more likely than not
 * moves within 30 days.
 */
import { ETA_BIN_EDGES } from './model-artifact';
import { NEXT_STAGE_DAYS } from './labels';

/** The intervals of days (ETA_BIN_EDGES) the ETA networks give shares of, before their last output: no next stage. */
export const ETA_INTERVALS = ETA_BIN_EDGES.length - 1;
/** Intervals that end on or before NEXT_STAGE_DAYS (an edge of ETA_BIN_EDGES). */
const WITHIN = ETA_BIN_EDGES.indexOf(NEXT_STAGE_DAYS);

/** The two readings of a live bill's distribution, and what ties them. */
export interface NextStage {
  /** P(a main stage sits within NEXT_STAGE_DAYS): next_stage_30d */
  within30: number;
  /** P(the bill has a next main stage at all) */
  atAll: number;
  /** the median days to the next main stage given that there is one, to 0.1 day */
  etaDays: number;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
/** a share the networks put at (or below) 0 still counts a little, so every interval can hold mass */
const FLOOR = 1e-9;
const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

/**
 * The median of a distribution over the intervals of ETA_BIN_EDGES (masses need not sum to 1),
 * spread evenly within an interval. A median is what minimises the absolute error the evaluation scores.
 */
export function medianDays(masses: readonly number[]): number {
  const total = sum(masses);
  if (!(total > 0)) return ETA_BIN_EDGES[ETA_INTERVALS];
  let below = 0;
  for (let i = 0; i < ETA_INTERVALS; i++) {
    const share = masses[i] / total;
    if (share > 0 && below + share >= 0.5) return ETA_BIN_EDGES[i] + ((ETA_BIN_EDGES[i + 1] - ETA_BIN_EDGES[i]) * (0.5 - below)) / share;
    below += share;
  }
  return ETA_BIN_EDGES[ETA_INTERVALS];
}

/**
 * The ETA to 0.1 day from a median and the share of the moving bill's mass within 30 days:
 * rounding never carries a median past 30 days to 30.0 or below, so the invariant holds of the
 * numbers as served.
 */
function servedEta(median: number, shareWithin: number): number {
  const rounded = Math.round(median * 10) / 10;
  return shareWithin >= 0.5 ? Math.min(rounded, NEXT_STAGE_DAYS) : Math.max(rounded, NEXT_STAGE_DAYS + 0.1);
}

/**
 * One distribution from the calibrated probability of a stage within 30 days and the ETA
 * networks' outputs (one per interval, then no next stage), read as next_stage_30d and the ETA.
 * Both probabilities are rounded to 6 decimals first, and the ETA read from the rounded ones.
 */
export function nextStageOf(within30: number, etaOutputs: readonly number[]): NextStage {
  const shares = etaOutputs.map((x) => Math.max(FLOOR, Number.isFinite(x) ? x : 0));
  const inside = shares.slice(0, WITHIN);
  const later = shares.slice(WITHIN, ETA_INTERVALS);
  const none = shares[ETA_INTERVALS] ?? FLOOR;
  const p = round6(Math.min(1, Math.max(0, within30)));
  const atAll = Math.max(p, round6(p + ((1 - p) * sum(later)) / (sum(later) + none)), 1e-6);
  const masses = [...inside.map((x) => (p * x) / sum(inside)), ...later.map((x) => ((atAll - p) * x) / sum(later))];
  return { within30: p, atAll, etaDays: servedEta(medianDays(masses), p / atAll) };
}

/**
 * The distribution once the next stage is scheduled `days` ahead: given that the bill moves, it
 * moves that day; whether it moves at all stays the model's (a private member's bill's second
 * reading is often set down and not reached). So the ETA is the days to the sitting, and
 * next_stage_30d the chance the bill moves at all when the sitting is within 30 days, else 0.
 */
export function scheduledAt(atAll: number, days: number): NextStage {
  return { within30: days <= NEXT_STAGE_DAYS ? atAll : 0, atAll, etaDays: days };
}
