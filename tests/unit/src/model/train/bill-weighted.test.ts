import {
  aucStatistic,
  BillSet,
  bootstrap,
  brierStatistic,
  eceStatistic,
  meanAbsoluteErrorStatistic,
  medianAbsoluteErrorStatistic,
  ratioStatistic,
  weightedReliability,
  type BillForecast,
} from '../../../../../src/model/train/bill-weighted';
import { auc, brier } from '../../../../../src/model/train/metrics';
import { expectedCalibrationError, medianAbsoluteError } from '../../../../support/sample-metrics';

const f = (billId: number, p: number, y: 0 | 1): BillForecast => ({ billId, p, y });
const once = (samples: BillForecast[]) => new BillSet(samples.map((s) => s.billId));

describe('bill-weighted metrics', () => {
  // Bill 1 lives long: eight nowcasts, all at 0.9, and it passes. Bill 2 falls after one nowcast at 0.9.
  const longLived = [...Array.from({ length: 8 }, () => f(1, 0.9, 1)), f(2, 0.9, 0)];

  it('count each bill once, however many nowcasts it has', () => {
    const bills = once(longLived);
    // per nowcast: (8 × 0.01 + 0.81) / 9; per bill: (0.01 + 0.81) / 2
    expect(brier(longLived)).toBeCloseTo((8 * 0.01 + 0.81) / 9, 12);
    expect(brierStatistic(bills, longLived)(bills.ones())).toBeCloseTo(0.41, 12);
    // one bin at 0.9: per nowcast 8 of 9 passed (gap 0.011); per bill 1 of 2 (gap 0.4)
    expect(expectedCalibrationError(longLived)).toBeCloseTo(Math.abs(0.9 - 8 / 9), 12);
    expect(eceStatistic(bills, longLived)(bills.ones())).toBeCloseTo(0.4, 12);
  });

  it('equal the ordinary metrics when every bill has one nowcast', () => {
    const samples = [f(1, 0.9, 1), f(2, 0.7, 1), f(3, 0.7, 0), f(4, 0.5, 0), f(5, 0.5, 1), f(6, 0.2, 0), f(7, 0.35, 1)];
    const bills = once(samples);
    expect(aucStatistic(bills, samples)(bills.ones())).toBeCloseTo(auc(samples)!, 12);
    expect(brierStatistic(bills, samples)(bills.ones())).toBeCloseTo(brier(samples)!, 12);
    expect(eceStatistic(bills, samples)(bills.ones())).toBeCloseTo(expectedCalibrationError(samples)!, 12);
    const errors = [3, 10, 1, 7].map((e, i) => ({ billId: i, predicted: e, actual: 0 }));
    const errorBills = new BillSet(errors.map((e) => e.billId));
    expect(medianAbsoluteErrorStatistic(errorBills, errors)(errorBills.ones())).toBe(medianAbsoluteError(errors));
    expect(medianAbsoluteErrorStatistic(errorBills, errors.slice(0, 3))(new BillSet([0, 1, 2]).ones())).toBe(3);
  });

  it('weigh the AUC pairs by bill', () => {
    // bill 1: three positives at 0.8; bill 2: one negative at 0.9; bill 3: one negative at 0.1.
    // per bill: bill 1 (weight 1) beats bill 3 and loses to bill 2: AUC 0.5 (per nowcast too, by symmetry)
    const samples = [f(1, 0.8, 1), f(1, 0.8, 1), f(1, 0.8, 1), f(2, 0.9, 0), f(3, 0.1, 0)];
    const bills = once(samples);
    expect(aucStatistic(bills, samples)(bills.ones())).toBeCloseTo(0.5, 12);
    // bill 2 drawn twice, bill 3 not: every pair is wrong
    expect(aucStatistic(bills, samples)(Float64Array.from([1, 2, 0]))).toBe(0);
    expect(aucStatistic(bills, [f(1, 0.3, 1)])(new BillSet([1]).ones())).toBeNull();
  });

  it('give the ETA errors a weight per bill', () => {
    // bill 1 is missed by 1 day nine times, bill 2 by 100 days, bill 3 by 50: the typical bill is missed by 50
    const errors = [...Array.from({ length: 9 }, () => ({ billId: 1, predicted: 11, actual: 10 })), { billId: 2, predicted: 0, actual: 100 }, { billId: 3, predicted: 60, actual: 10 }];
    const bills = new BillSet(errors.map((e) => e.billId));
    expect(medianAbsoluteError(errors)).toBe(1);
    expect(medianAbsoluteErrorStatistic(bills, errors)(bills.ones())).toBe(50);
    expect(meanAbsoluteErrorStatistic(bills, errors)(bills.ones())).toBeCloseTo(151 / 3, 12);
  });

  it('report a reliability table in bills, with the nowcasts counted beside them', () => {
    const table = weightedReliability(longLived);
    const top = table[9];
    expect(top).toMatchObject({ count: 9, bills: 2, observedRate: 0.5 });
    expect(top.meanPredicted).toBeCloseTo(0.9, 12);
    expect(table[0]).toMatchObject({ count: 0, bills: 0, meanPredicted: null, observedRate: null });
  });

  it('reject a probability outside [0, 1] and a bill outside the set', () => {
    expect(() => brierStatistic(new BillSet([1]), [f(1, 1.2, 1)])).toThrow(RangeError);
    expect(() => brierStatistic(new BillSet([1]), [f(2, 0.5, 1)])).toThrow(RangeError);
  });
});

describe('bootstrap over bills', () => {
  // 60 bills; the model's forecasts are informative but noisy, a table's are flat
  const bills = Array.from({ length: 60 }, (_, i) => i);
  const outcome = (i: number): 0 | 1 => (i % 3 === 0 ? 1 : 0);
  const model = bills.flatMap((i) => Array.from({ length: 1 + (i % 5) }, (_, k) => f(i, outcome(i) ? 0.6 + 0.05 * (k % 3) : 0.2 + 0.1 * ((i + k) % 4), outcome(i))));
  const table = model.map((s) => ({ ...s, p: 1 / 3 }));
  const set = new BillSet(bills);
  const statistics = () => ({
    brier: brierStatistic(set, model),
    auc: aucStatistic(set, model),
    ece: eceStatistic(set, model),
    ratio: ratioStatistic(brierStatistic(set, model), brierStatistic(set, table)),
  });

  it('gives an interval around each figure, containing it', () => {
    const result = bootstrap(set, statistics(), { replicates: 400 });
    for (const estimate of Object.values(result)) {
      expect(estimate.value).not.toBeNull();
      expect(estimate.low!).toBeLessThanOrEqual(estimate.value!);
      expect(estimate.high!).toBeGreaterThanOrEqual(estimate.value!);
      expect(estimate.high!).toBeGreaterThan(estimate.low!);
    }
    expect(result.brier.value).toBeCloseTo(brierStatistic(set, model)(set.ones())!, 12);
    // the model beats the flat table on every resample of these bills
    expect(result.ratio.high!).toBeLessThan(1);
  });

  it('is the same for the same seed and differs for another', () => {
    const a = bootstrap(set, statistics(), { replicates: 200, seed: 7 });
    expect(bootstrap(set, statistics(), { replicates: 200, seed: 7 })).toEqual(a);
    expect(bootstrap(set, statistics(), { replicates: 200, seed: 8 }).brier).not.toEqual(a.brier);
  });

  it('narrows as the bills grow more numerous, not as their nowcasts do', () => {
    const width = (e: { low: number | null; high: number | null }) => e.high! - e.low!;
    const few = bills.slice(0, 15);
    const fewSamples = model.filter((s) => few.includes(s.billId));
    const fewSet = new BillSet(few);
    // the same 15 bills, each nowcast repeated ten times: the same bills, the same uncertainty
    const repeated = fewSamples.flatMap((s) => Array.from({ length: 10 }, () => s));
    const narrowFew = bootstrap(fewSet, { brier: brierStatistic(fewSet, fewSamples) }, { replicates: 400 });
    const narrowRepeated = bootstrap(fewSet, { brier: brierStatistic(fewSet, repeated) }, { replicates: 400 });
    expect(width(narrowRepeated.brier)).toBeCloseTo(width(narrowFew.brier), 9);
    // four times as many bills like them: about half as wide
    const moreBills = [0, 1, 2, 3].flatMap((copy) => fewSamples.map((s) => ({ ...s, billId: s.billId + 100 * copy })));
    const moreSet = new BillSet(moreBills.map((s) => s.billId));
    const manyBills = bootstrap(moreSet, { brier: brierStatistic(moreSet, moreBills) }, { replicates: 400 });
    expect(width(manyBills.brier)).toBeLessThan(0.7 * width(narrowFew.brier));
  });

  it('has no interval where the figure cannot be computed', () => {
    const onlyPositives = [f(1, 0.8, 1), f(2, 0.6, 1)];
    const two = new BillSet([1, 2]);
    expect(bootstrap(two, { auc: aucStatistic(two, onlyPositives) }, { replicates: 50 }).auc).toEqual({ value: null, low: null, high: null });
    const empty = new BillSet([]);
    expect(bootstrap(empty, { brier: brierStatistic(empty, []) }).brier).toEqual({ value: null, low: null, high: null });
  });
});
