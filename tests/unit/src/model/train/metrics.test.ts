import { auc, brier, brierSkill, formatMetric, type BinaryOutcome } from '../../../../../src/model/train/metrics';
import type { ReliabilityBin } from '../../../../../src/model/train/binary-report';
import { binaryReport, expectedCalibrationError, meanAbsoluteError, medianAbsoluteError, reliabilityTable } from '../../../../support/sample-metrics';

const s = (p: number, y: 0 | 1): BinaryOutcome => ({ p, y });

describe('auc', () => {
  it('is 1 for a perfect ranking', () => {
    expect(auc([s(0.1, 0), s(0.2, 0), s(0.8, 1), s(0.9, 1)])).toBe(1);
  });

  it('is 0 for a reversed ranking', () => {
    expect(auc([s(0.9, 0), s(0.8, 0), s(0.2, 1), s(0.1, 1)])).toBe(0);
  });

  it('is 0.5 when every forecast is tied, whatever the sample order', () => {
    expect(auc([s(0.4, 1), s(0.4, 0), s(0.4, 0), s(0.4, 1), s(0.4, 1)])).toBe(0.5);
    expect(auc([s(0.4, 0), s(0.4, 0), s(0.4, 1), s(0.4, 1), s(0.4, 1)])).toBe(0.5);
  });

  it('counts ties between a positive and a negative as half (hand-worked)', () => {
    // Ascending: 0.2(0) rank 1; 0.5(0), 0.5(1) ranks 2,3 -> 2.5 each; 0.7(1), 0.7(0) ranks 4,5 -> 4.5 each; 0.9(1) rank 6.
    // Positive rank sum R = 2.5 + 4.5 + 6 = 13; nPos = nNeg = 3.
    // U = R - nPos(nPos+1)/2 = 13 - 6 = 7; AUC = U / (nPos * nNeg) = 7/9.
    // Pairwise check: 0.9 beats 3 negatives (3); 0.7 beats 0.5, 0.2 and ties 0.7 (2.5); 0.5 beats 0.2 and ties 0.5 (1.5) -> 7.
    const samples = [s(0.9, 1), s(0.7, 1), s(0.7, 0), s(0.5, 0), s(0.5, 1), s(0.2, 0)];
    expect(auc(samples)).toBeCloseTo(7 / 9, 12);
    // Order of the input does not matter.
    expect(auc([...samples].reverse())).toBeCloseTo(7 / 9, 12);
  });

  it('is null when empty or only one class is present', () => {
    expect(auc([])).toBeNull();
    expect(auc([s(0.2, 1), s(0.9, 1)])).toBeNull();
    expect(auc([s(0.2, 0), s(0.9, 0)])).toBeNull();
  });

  it('rejects probabilities outside [0, 1] and NaN instead of leaking NaN', () => {
    expect(() => auc([s(1.2, 1), s(0.1, 0)])).toThrow(RangeError);
    expect(() => auc([s(Number.NaN, 1), s(0.1, 0)])).toThrow(RangeError);
    expect(() => brier([{ p: 0.5, y: 2 as unknown as 0 }])).toThrow(RangeError);
  });

  it('handles a large sample with many ties exactly', () => {
    // 1000 positives at 0.6 and 1000 negatives split between 0.6 (500) and 0.3 (500):
    // each positive beats 500 negatives and ties 500 -> U = 1000 * (500 + 250) = 750000; AUC = 750000 / 1e6 = 0.75.
    const samples: BinaryOutcome[] = [];
    for (let i = 0; i < 1000; i += 1) samples.push(s(0.6, 1));
    for (let i = 0; i < 500; i += 1) samples.push(s(0.6, 0), s(0.3, 0));
    expect(auc(samples)).toBe(0.75);
  });
});

describe('brier', () => {
  it('is the mean squared error of p against y (hand-worked)', () => {
    // (0.8-1)^2 = 0.04, (0.3-0)^2 = 0.09, (0.6-0)^2 = 0.36, (1-1)^2 = 0 -> 0.49 / 4 = 0.1225
    expect(brier([s(0.8, 1), s(0.3, 0), s(0.6, 0), s(1, 1)])).toBeCloseTo(0.1225, 12);
  });

  it('is 0 for certain correct forecasts, 1 for certain wrong ones, 0.25 for coin flips', () => {
    expect(brier([s(1, 1), s(0, 0)])).toBe(0);
    expect(brier([s(0, 1), s(1, 0)])).toBe(1);
    expect(brier([s(0.5, 1), s(0.5, 0)])).toBe(0.25);
  });

  it('is null when empty', () => {
    expect(brier([])).toBeNull();
  });
});

describe('brierSkill', () => {
  it('is 1 - model/baseline', () => {
    expect(brierSkill(0.1, 0.2)).toBeCloseTo(0.5, 12);
    expect(brierSkill(0.2, 0.2)).toBe(0);
    expect(brierSkill(0, 0.2)).toBe(1);
    expect(brierSkill(0.3, 0.2)).toBeCloseTo(-0.5, 12);
  });

  it('is null when either side is missing or the baseline is 0', () => {
    expect(brierSkill(null, 0.2)).toBeNull();
    expect(brierSkill(0.1, null)).toBeNull();
    expect(brierSkill(0.1, 0)).toBeNull();
    expect(brierSkill(0, 0)).toBeNull();
  });
});

describe('reliabilityTable', () => {
  /** Index of the only non-empty bin. */
  const binOf = (table: ReliabilityBin[]): number => {
    const matches = table.flatMap((b, i) => (b.count > 0 ? [i] : []));
    expect(matches).toHaveLength(1);
    return matches[0];
  };

  it('places 0, the 0.1 boundary, 0.95 and 1.0 in the right bins', () => {
    expect(binOf(reliabilityTable([s(0, 0)]))).toBe(0);
    expect(binOf(reliabilityTable([s(0.1, 0)]))).toBe(1);
    expect(binOf(reliabilityTable([s(0.0999, 0)]))).toBe(0);
    expect(binOf(reliabilityTable([s(0.95, 1)]))).toBe(9);
    expect(binOf(reliabilityTable([s(1, 1)]))).toBe(9);
  });

  it('puts a value equal to a lower edge in that bin despite floating-point products', () => {
    // 0.29 * 100 = 28.999999999999996 in floating point, but 0.29 is bin 29's lower edge.
    expect(binOf(reliabilityTable([s(0.29, 0)], 100))).toBe(29);
    expect(binOf(reliabilityTable([s(0.3, 0)]))).toBe(3);
  });

  it('has equal-width bins over [0, 1], empty ones with nulls', () => {
    const table = reliabilityTable([s(0.15, 1), s(0.15, 0), s(0.12, 0)], 5);
    expect(table).toHaveLength(5);
    expect(table.map((b) => [b.lower, b.upper])).toEqual([
      [0, 0.2],
      [0.2, 0.4],
      [0.4, 0.6],
      [0.6, 0.8],
      [0.8, 1],
    ]);
    expect(table[0].count).toBe(3);
    expect(table[0].meanPredicted).toBeCloseTo(0.14, 12);
    expect(table[0].observedRate).toBeCloseTo(1 / 3, 12);
    for (const b of table.slice(1)) expect(b).toMatchObject({ count: 0, meanPredicted: null, observedRate: null });
  });

  it('rejects a non-positive or fractional bin count', () => {
    expect(() => reliabilityTable([], 0)).toThrow(RangeError);
    expect(() => reliabilityTable([], 2.5)).toThrow(RangeError);
  });
});

describe('expectedCalibrationError', () => {
  it('is 0 for perfectly calibrated bins', () => {
    // Bin 2 (0.2-0.3): four forecasts of 0.25, one positive -> observed 0.25.
    // Bin 7 (0.7-0.8): four forecasts of 0.75, three positive -> observed 0.75.
    const samples = [
      s(0.25, 1), s(0.25, 0), s(0.25, 0), s(0.25, 0),
      s(0.75, 1), s(0.75, 1), s(0.75, 1), s(0.75, 0),
    ];
    expect(expectedCalibrationError(samples)).toBe(0);
  });

  it('matches a hand-worked example', () => {
    // Bin 1: 0.15, 0.15 with outcomes 0, 1 -> mean 0.15, observed 0.5, gap 0.35, weight 2/5.
    // Bin 8: 0.85, 0.85 with outcomes 1, 1 -> mean 0.85, observed 1, gap 0.15, weight 2/5.
    // Bin 9: 0.9 with outcome 0 -> mean 0.9, observed 0, gap 0.9, weight 1/5.
    // ECE = 0.4*0.35 + 0.4*0.15 + 0.2*0.9 = 0.14 + 0.06 + 0.18 = 0.38.
    const samples = [s(0.15, 0), s(0.15, 1), s(0.85, 1), s(0.85, 1), s(0.9, 0)];
    expect(expectedCalibrationError(samples)).toBeCloseTo(0.38, 12);
    // With a single bin everything pools: mean 2.9/5 = 0.58, observed 3/5 = 0.6 -> 0.02.
    expect(expectedCalibrationError(samples, 1)).toBeCloseTo(0.02, 12);
  });

  it('is null when empty', () => {
    expect(expectedCalibrationError([])).toBeNull();
  });
});

describe('absolute errors', () => {
  it('takes the middle value for an odd count', () => {
    // |10-8| = 2, |5-6| = 1, |0-3| = 3 -> sorted 1, 2, 3 -> median 2, mean 2
    const samples = [
      { predicted: 10, actual: 8 },
      { predicted: 5, actual: 6 },
      { predicted: 0, actual: 3 },
    ];
    expect(medianAbsoluteError(samples)).toBe(2);
    expect(meanAbsoluteError(samples)).toBe(2);
  });

  it('averages the two middle values for an even count, and the mean feels the outlier', () => {
    // errors 1, 2, 3, 10 -> median (2+3)/2 = 2.5, mean 16/4 = 4
    const samples = [
      { predicted: 1, actual: 0 },
      { predicted: 0, actual: 10 },
      { predicted: 7, actual: 4 },
      { predicted: -2, actual: 0 },
    ];
    expect(medianAbsoluteError(samples)).toBe(2.5);
    expect(meanAbsoluteError(samples)).toBe(4);
  });

  it('is null when empty and rejects non-finite values', () => {
    expect(medianAbsoluteError([])).toBeNull();
    expect(meanAbsoluteError([])).toBeNull();
    expect(() => meanAbsoluteError([{ predicted: Number.NaN, actual: 1 }])).toThrow(RangeError);
    expect(() => medianAbsoluteError([{ predicted: 1, actual: Number.POSITIVE_INFINITY }])).toThrow(RangeError);
  });
});

describe('binaryReport', () => {
  it('bundles the metrics for one sample', () => {
    const samples = [s(0.9, 1), s(0.7, 1), s(0.7, 0), s(0.5, 0), s(0.5, 1), s(0.2, 0)];
    const report = binaryReport(samples, 5);
    expect(report.n).toBe(6);
    expect(report.positives).toBe(3);
    expect(report.auc).toBeCloseTo(7 / 9, 12);
    // (0.01 + 0.09 + 0.49 + 0.25 + 0.25 + 0.04) / 6 = 1.13 / 6
    expect(report.brier).toBeCloseTo(1.13 / 6, 12);
    expect(report.reliability).toHaveLength(5);
    expect(report.ece).toBe(expectedCalibrationError(samples, 5));
  });

  it('is all nulls for an empty sample', () => {
    const report = binaryReport([]);
    expect(report).toMatchObject({ n: 0, positives: 0, auc: null, brier: null, ece: null });
    expect(report.reliability).toHaveLength(10);
  });
});

describe('formatMetric', () => {
  it('prints a dash for missing values and fixed digits otherwise', () => {
    expect(formatMetric(null)).toBe('—');
    expect(formatMetric(0.77777)).toBe('0.778');
    expect(formatMetric(0.5, 1)).toBe('0.5');
    expect(formatMetric(1)).toBe('1.000');
    expect(formatMetric(-0.0001)).toBe('0.000');
    expect(formatMetric(-0.25, 2)).toBe('-0.25');
  });
});
