/**
 * Measures of probabilistic yes/no forecasts (e.g. "will this bill receive Royal Assent?")
 * against what happened, every sample weighing alike: the training scores its calibration
 * period and the champion/challenger check with them, the model card its skill and numbers.
 *
 * Pure computation: no database, no I/O. Every function that averages over samples
 * returns null for an empty input instead of NaN, so a missing metric shows up as
 * "not computable" rather than as a number that poisons later arithmetic.
 * Inputs that cannot be scored (a probability outside [0, 1], a label other than
 * 0/1, a non-finite number) throw a RangeError: silently dropping them would make
 * the model card describe a different sample than the one it claims to.
 *
 * Each measure is the bill-weighted one (bill-weighted.ts) with every sample its own bill.
 */
import { aucStatistic, BillSet, brierStatistic } from './bill-weighted';

/** One probabilistic forecast of a binary event and what happened. */
export interface BinaryOutcome {
  /** Forecast probability that the event happens, in [0, 1]. */
  p: number;
  /** 1 if the event happened, 0 if not. */
  y: 0 | 1;
}

function validateBinary(samples: readonly BinaryOutcome[]): void {
  samples.forEach((s, i) => {
    if (typeof s.p !== 'number' || !Number.isFinite(s.p) || s.p < 0 || s.p > 1) {
      throw new RangeError(`metrics: p must be a finite number in [0, 1] (got ${String(s.p)} at index ${i})`);
    }
    if (s.y !== 0 && s.y !== 1) {
      throw new RangeError(`metrics: y must be 0 or 1 (got ${String(s.y)} at index ${i})`);
    }
  });
}

/** The samples as bills of one sample each: the bill-weighted measures then weigh every sample alike. */
function ownBills<T extends object>(samples: readonly T[]): { bills: BillSet; samples: (T & { billId: number })[] } {
  return { bills: new BillSet(samples.keys()), samples: samples.map((s, billId) => ({ ...s, billId })) };
}

/**
 * Area under the ROC curve: the probability that a randomly chosen case where the
 * event happened was given a higher forecast than a randomly chosen case where it
 * did not. 1 is a perfect ranking, 0.5 is no better than chance, 0 is a perfectly
 * reversed ranking. It measures discrimination only, not calibration.
 *
 * Computed as the Mann–Whitney U statistic with average ranks for tied forecasts:
 * a tie between a positive and a negative then counts as half a correct ordering,
 * which is what the area under the step-free ROC curve gives and what makes a model
 * that forecasts the same probability for everything score exactly 0.5 instead of
 * depending on the order the samples happened to arrive in.
 *
 * Null when there are no samples or only one class, since the ranking question has
 * no answer then.
 */
export function auc(samples: BinaryOutcome[]): number | null {
  validateBinary(samples);
  const own = ownBills(samples);
  return aucStatistic(own.bills, own.samples)(own.bills.ones());
}

/**
 * Brier score: the mean squared difference between forecast probability and outcome.
 * 0 is perfect; always forecasting 0.5 scores 0.25. Unlike AUC it rewards both
 * ranking and calibration, and it is a proper scoring rule, so a model cannot
 * improve it by reporting anything other than its honest probability.
 * Null when there are no samples.
 */
export function brier(samples: BinaryOutcome[]): number | null {
  validateBinary(samples);
  const own = ownBills(samples);
  return brierStatistic(own.bills, own.samples)(own.bills.ones());
}

/**
 * Brier skill score, 1 − model/baseline: the fraction of the baseline's Brier score
 * (typically "always forecast the historical base rate") that the model removes.
 * 1 is perfect, 0 is no better than the baseline, negative is worse than it.
 * Null when either score is missing or the baseline is already perfect (0), where
 * the ratio is undefined.
 */
export function brierSkill(model: number | null, baseline: number | null): number | null {
  if (model === null || baseline === null) return null;
  if (!Number.isFinite(model) || !Number.isFinite(baseline) || baseline === 0) return null;
  return 1 - model / baseline;
}

/**
 * A metric for display: '—' when it could not be computed, otherwise fixed-point
 * with the given number of digits. A value that rounds to zero prints without a
 * minus sign, so "-0.000" never appears in a model card.
 */
export function formatMetric(value: number | null, digits = 3): string {
  if (value === null || !Number.isFinite(value)) return '—';
  const text = value.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}
