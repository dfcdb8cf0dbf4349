/**
 * Metrics weighted by bill, and bootstrap intervals over bills.
 *
 * The evaluation scores a bill every 14 days while it lives, so a bill that lives two years gives
 * fifty nowcasts and one that falls in a month gives two. Counting nowcasts alike would let the
 * long-lived bills (mostly government bills that pass) decide the figures; here each bill's
 * nowcasts share a weight of 1, so every bill counts once.
 *
 * The intervals resample bills, not nowcasts: a bill's nowcasts rise and fall together, and
 * resampling them one by one would pretend there were far more independent cases than bills.
 * A replicate draws as many bills as the set holds, with replacement; a bill drawn twice weighs 2.
 * The generator is seeded, so the same forecasts give the same intervals.
 *
 * Each measure is prepared once (sorted, binned) and then evaluated for any multiplicity of the
 * bills, so a thousand replicates cost a thousand linear passes, not a thousand sorts.
 */
import type { BinaryReport, ReliabilityBin } from './binary-report';
import { seededRandom } from '../../common/seeded-random';

export interface BillForecast {
  billId: number;
  /** forecast probability, in [0, 1] */
  p: number;
  y: 0 | 1;
}

export interface BillEstimate {
  billId: number;
  predicted: number;
  actual: number;
}

/**
 * Index of the equal-width bin containing p, with bins [i/bins, (i+1)/bins) and the
 * last one closed at 1. Corrects floor(p·bins) when floating-point multiplication
 * lands just below or above a boundary (e.g. 0.29 × 100 = 28.999…), so that a
 * forecast equal to a bin's printed lower edge always falls in that bin.
 */
function binIndex(p: number, bins: number): number {
  let index = Math.min(Math.floor(p * bins), bins - 1);
  if (index + 1 < bins && p >= (index + 1) / bins) index += 1;
  if (index > 0 && p < index / bins) index -= 1;
  return index;
}

/** A figure and its bootstrap interval; null where the figure cannot be computed. */
export interface Estimate {
  value: number | null;
  low: number | null;
  high: number | null;
}

/** How many times each bill of a BillSet counts (1 for every bill: the figure itself). */
export type Multiplicity = Float64Array;

/** A figure computed from the bills' multiplicities. */
export type BillStatistic = (multiplicity: Multiplicity) => number | null;

/** The bills a bootstrap draws from, numbered densely. */
export class BillSet {
  private readonly index = new Map<number, number>();

  constructor(billIds: Iterable<number>) {
    for (const id of billIds) if (!this.index.has(id)) this.index.set(id, this.index.size);
  }

  get size(): number {
    return this.index.size;
  }

  /** Every bill once. */
  ones(): Multiplicity {
    return new Float64Array(this.size).fill(1);
  }

  /** A sample's bill, as its index in the multiplicity arrays. */
  indexOf(billId: number): number {
    const i = this.index.get(billId);
    if (i === undefined) throw new RangeError(`bill ${billId} is not in the set the bootstrap draws from`);
    return i;
  }
}

/**
 * Which bill each sample belongs to, and its share of that bill's weight: a sample of a bill with
 * k samples weighs multiplicity(bill) / k, so each appearance of a bill weighs 1 in total.
 */
export interface SampleWeights {
  billOf: Int32Array;
  share: Float64Array;
}

export function sampleWeights(bills: BillSet, billIds: readonly number[]): SampleWeights {
  const billOf = Int32Array.from(billIds, (id) => bills.indexOf(id));
  const perBill = new Float64Array(bills.size);
  for (const b of billOf) perBill[b] += 1;
  return { billOf, share: Float64Array.from(billOf, (b) => 1 / perBill[b]) };
}

/**
 * Per-sample values summed within each bill and scaled by the bill's share: what one appearance of
 * the bill adds. A statistic that is a weighted sum then costs one pass over the bills, not the samples.
 */
function perBillSums(bills: BillSet, billIds: readonly number[], values: readonly number[]): { bill: Int32Array; sum: Float64Array } {
  const { billOf, share } = sampleWeights(bills, billIds);
  const sums = new Map<number, number>();
  for (let i = 0; i < billOf.length; i++) sums.set(billOf[i], (sums.get(billOf[i]) ?? 0) + values[i] * share[i]);
  return { bill: Int32Array.from(sums.keys()), sum: Float64Array.from(sums.values()) };
}

/** The mean of per-sample values, each bill weighing its multiplicity. */
function weightedMean(bills: BillSet, billIds: readonly number[], values: readonly number[]): BillStatistic {
  const { bill, sum } = perBillSums(bills, billIds, values);
  return (m) => {
    let total = 0;
    let weighted = 0;
    for (let j = 0; j < bill.length; j++) {
      total += m[bill[j]];
      weighted += m[bill[j]] * sum[j];
    }
    return total > 0 ? weighted / total : null;
  };
}

function validateForecasts(samples: readonly BillForecast[]): void {
  for (const s of samples) {
    if (!Number.isFinite(s.p) || s.p < 0 || s.p > 1 || (s.y !== 0 && s.y !== 1)) {
      throw new RangeError(`bill-weighted metrics: bill ${s.billId} has p ${String(s.p)}, y ${String(s.y)}; p must be in [0, 1] and y 0 or 1`);
    }
  }
}

/** Brier score with each bill weighing 1. */
export function brierStatistic(bills: BillSet, samples: readonly BillForecast[]): BillStatistic {
  validateForecasts(samples);
  return weightedMean(bills, samples.map((s) => s.billId), samples.map((s) => (s.p - s.y) ** 2));
}

/** The mean forecast probability with each bill weighing 1 (what a forecaster expected of the bills, on average). */
export function meanForecastStatistic(bills: BillSet, samples: readonly BillForecast[]): BillStatistic {
  validateForecasts(samples);
  return weightedMean(bills, samples.map((s) => s.billId), samples.map((s) => s.p));
}

/**
 * Area under the ROC curve with each bill weighing 1: the weighted share of (event, no event)
 * pairs ranked the right way, a tie counting half. With equal weights it is the Mann–Whitney AUC.
 */
export function aucStatistic(bills: BillSet, samples: readonly BillForecast[]): BillStatistic {
  validateForecasts(samples);
  const sorted = [...samples].sort((a, b) => a.p - b.p);
  const { billOf, share } = sampleWeights(bills, sorted.map((s) => s.billId));
  const positive = Uint8Array.from(sorted, (s) => s.y);
  const groupEnds: number[] = [];
  for (let i = 0; i < sorted.length; i++) if (i + 1 === sorted.length || sorted[i + 1].p !== sorted[i].p) groupEnds.push(i + 1);
  const ends = Int32Array.from(groupEnds);
  return (m) => {
    let negativesBelow = 0;
    let pairs = 0;
    let positives = 0;
    let start = 0;
    for (let g = 0; g < ends.length; g++) {
      let groupPositives = 0;
      let groupNegatives = 0;
      for (let i = start; i < ends[g]; i++) {
        const w = m[billOf[i]] * share[i];
        if (positive[i]) groupPositives += w;
        else groupNegatives += w;
      }
      pairs += groupPositives * (negativesBelow + groupNegatives / 2);
      negativesBelow += groupNegatives;
      positives += groupPositives;
      start = ends[g];
    }
    return positives > 0 && negativesBelow > 0 ? pairs / (positives * negativesBelow) : null;
  };
}

interface WeightedBins {
  weight: Float64Array;
  predicted: Float64Array;
  observed: Float64Array;
  total: number;
}

/** Forecasts binned by probability: each bin's weight, weighted forecast sum and weighted event count, under a multiplicity. */
function binnedForecasts(bills: BillSet, samples: readonly BillForecast[], bins: number): (m: Multiplicity) => WeightedBins {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`bill-weighted metrics: bins must be a positive integer (got ${String(bins)})`);
  validateForecasts(samples);
  // one entry per (bill, bin): what one appearance of the bill adds to the bin
  const cells = new Map<string, number>();
  const cellIds = samples.map((s) => {
    const key = `${s.billId}/${binIndex(s.p, bins)}`;
    return cells.get(key) ?? cells.set(key, cells.size).get(key)!;
  });
  const ids = samples.map((s) => s.billId);
  const weight = perBillCells(bills, ids, cellIds, samples.map(() => 1), cells.size);
  const predicted = perBillCells(bills, ids, cellIds, samples.map((s) => s.p), cells.size);
  const observed = perBillCells(bills, ids, cellIds, samples.map((s) => s.y), cells.size);
  const binOfCell = new Int32Array(cells.size);
  cellIds.forEach((c, i) => (binOfCell[c] = binIndex(samples[i].p, bins)));
  return (m) => {
    const out: WeightedBins = { weight: new Float64Array(bins), predicted: new Float64Array(bins), observed: new Float64Array(bins), total: 0 };
    for (let c = 0; c < binOfCell.length; c++) {
      const w = m[weight.bill[c]];
      if (w === 0) continue;
      const b = binOfCell[c];
      out.weight[b] += w * weight.sum[c];
      out.predicted[b] += w * predicted.sum[c];
      out.observed[b] += w * observed.sum[c];
      out.total += w * weight.sum[c];
    }
    return out;
  };
}

/** Per-sample values summed within each cell (a bill and a bin), scaled by the sample's share of its bill. */
function perBillCells(bills: BillSet, billIds: readonly number[], cellIds: readonly number[], values: readonly number[], cellCount: number): { bill: Int32Array; sum: Float64Array } {
  const { billOf, share } = sampleWeights(bills, billIds);
  const bill = new Int32Array(cellCount);
  const sum = new Float64Array(cellCount);
  for (let i = 0; i < billOf.length; i++) {
    bill[cellIds[i]] = billOf[i];
    sum[cellIds[i]] += values[i] * share[i];
  }
  return { bill, sum };
}

/**
 * Expected calibration error with each bill weighing 1: over equal-width bins, the gap between
 * the weighted mean forecast and the weighted event rate, weighted by the bin's share of bills.
 */
export function eceStatistic(bills: BillSet, samples: readonly BillForecast[], bins = 10): BillStatistic {
  const binned = binnedForecasts(bills, samples, bins);
  return (m) => {
    const b = binned(m);
    if (b.total <= 0) return null;
    let gap = 0;
    for (let i = 0; i < bins; i++) gap += Math.abs(b.predicted[i] - b.observed[i]);
    return gap / b.total;
  };
}

/** A reliability bin whose `count` is the nowcasts in it and `bills` their weight, each bill weighing 1 in all. */
export type WeightedReliabilityBin = ReliabilityBin & { bills: number };

/** The reliability table with each bill weighing 1. */
export function weightedReliability(samples: readonly BillForecast[], bins = 10): WeightedReliabilityBin[] {
  const bills = new BillSet(samples.map((s) => s.billId));
  const b = binnedForecasts(bills, samples, bins)(bills.ones());
  const count = new Array<number>(bins).fill(0);
  for (const s of samples) count[binIndex(s.p, bins)] += 1;
  return Array.from({ length: bins }, (_, i) => ({
    lower: i / bins,
    upper: (i + 1) / bins,
    count: count[i],
    bills: b.weight[i],
    meanPredicted: b.weight[i] > 0 ? b.predicted[i] / b.weight[i] : null,
    observedRate: b.weight[i] > 0 ? b.observed[i] / b.weight[i] : null,
  }));
}

function absoluteErrors(samples: readonly BillEstimate[]): BillEstimate[] {
  for (const s of samples) {
    if (!Number.isFinite(s.predicted) || !Number.isFinite(s.actual)) throw new RangeError(`bill-weighted metrics: bill ${s.billId} has a non-finite estimate or value`);
  }
  return samples.map((s) => ({ ...s, predicted: Math.abs(s.predicted - s.actual), actual: 0 }));
}

/** Mean absolute error with each bill weighing 1. */
export function meanAbsoluteErrorStatistic(bills: BillSet, samples: readonly BillEstimate[]): BillStatistic {
  const errors = absoluteErrors(samples);
  return weightedMean(bills, errors.map((s) => s.billId), errors.map((s) => s.predicted));
}

/**
 * Median absolute error with each bill weighing 1: the error below which half the bills' weight
 * lies (where the weight splits exactly in two, the mean of the errors either side, as the
 * ordinary median does for an even count).
 */
export function medianAbsoluteErrorStatistic(bills: BillSet, samples: readonly BillEstimate[]): BillStatistic {
  const sorted = absoluteErrors(samples).sort((a, b) => a.predicted - b.predicted);
  const error = Float64Array.from(sorted, (s) => s.predicted);
  const { billOf, share } = sampleWeights(bills, sorted.map((s) => s.billId));
  return (m) => {
    let total = 0;
    for (let i = 0; i < error.length; i++) total += m[billOf[i]] * share[i];
    if (total <= 0) return null;
    const half = total / 2;
    const tolerance = total * 1e-12;
    let below = 0;
    for (let i = 0; i < error.length; i++) {
      const w = m[billOf[i]] * share[i];
      if (w <= 0) continue;
      below += w;
      if (below > half + tolerance) return error[i];
      if (below >= half - tolerance) {
        for (let j = i + 1; j < error.length; j++) if (m[billOf[j]] > 0) return (error[i] + error[j]) / 2;
        return error[i];
      }
    }
    return error[error.length - 1];
  };
}

/**
 * The same statistic, computed once per multiplicity array: figures that share a part (a ratio
 * and its two sides) then pay for it once per replicate. The bootstrap draws a new array each time.
 */
export function memoised(statistic: BillStatistic): BillStatistic {
  let last: Multiplicity | null = null;
  let value: number | null = null;
  return (m) => {
    if (m !== last) {
      last = m;
      value = statistic(m);
    }
    return value;
  };
}

/** a / b on the same bills (null where either is missing or b is 0): paired, so its interval is the comparison's. */
export function ratioStatistic(a: BillStatistic, b: BillStatistic): BillStatistic {
  return (m) => {
    const x = a(m);
    const y = b(m);
    return x === null || y === null || y === 0 ? null : x / y;
  };
}

export interface BootstrapOptions {
  replicates?: number;
  /** the interval's coverage, e.g. 0.9 for the 5th to the 95th percentile */
  level?: number;
  seed?: number;
  /** how a replicate draws its bills (default: as many bills as the set holds, with replacement) */
  resample?: (random: () => number) => Multiplicity;
}

export const BOOTSTRAP_REPLICATES = 1000;
export const BOOTSTRAP_LEVEL = 0.9;
export const BOOTSTRAP_SEED = 23;

/** The value at quantile q of sorted values, interpolating between neighbours. */
function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/**
 * Each statistic's value on the bills as they are, and its percentile interval over bootstrap
 * replicates that resample the bills. Every statistic sees the same replicates, so figures
 * compared with each other (a model and its baseline) are compared on the same bills. A replicate
 * where a statistic cannot be computed (an AUC with one class) is left out of its interval; with
 * more than a tenth of them left out, the interval is null.
 */
export function bootstrap<K extends string>(bills: BillSet, statistics: Record<K, BillStatistic>, options: BootstrapOptions = {}): Record<K, Estimate> {
  const replicates = options.replicates ?? BOOTSTRAP_REPLICATES;
  const level = options.level ?? BOOTSTRAP_LEVEL;
  const keys = Object.keys(statistics) as K[];
  const draws = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const random = seededRandom(options.seed ?? BOOTSTRAP_SEED);
  for (let r = 0; r < replicates && bills.size > 0; r++) {
    const multiplicity = options.resample ? options.resample(random) : new Float64Array(bills.size);
    if (!options.resample) for (let i = 0; i < bills.size; i++) multiplicity[Math.floor(random() * bills.size)] += 1;
    for (const k of keys) {
      const value = statistics[k](multiplicity);
      if (value !== null && Number.isFinite(value)) draws[k].push(value);
    }
  }
  const ones = bills.ones();
  return Object.fromEntries(
    keys.map((k) => {
      const value = bills.size > 0 ? statistics[k](ones) : null;
      const sorted = draws[k].sort((a, b) => a - b);
      const enough = value !== null && sorted.length > 0 && sorted.length >= 0.9 * replicates;
      return [k, { value, low: enough ? quantile(sorted, (1 - level) / 2) : null, high: enough ? quantile(sorted, (1 + level) / 2) : null }];
    }),
  ) as Record<K, Estimate>;
}

/** Everything the model card reports about a set of forecasts, each bill weighing 1 (n and positives count nowcasts). */
export function billWeightedReport(samples: readonly BillForecast[], bins = 10): BinaryReport {
  const bills = new BillSet(samples.map((s) => s.billId));
  const ones = bills.ones();
  return {
    n: samples.length,
    positives: samples.reduce((n, s) => n + s.y, 0),
    auc: aucStatistic(bills, samples)(ones),
    brier: brierStatistic(bills, samples)(ones),
    ece: eceStatistic(bills, samples, bins)(ones),
    reliability: weightedReliability(samples, bins),
  };
}
