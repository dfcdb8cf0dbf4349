import { BillSet, bootstrap, brierStatistic, type BillForecast } from '../../../../../src/model/train/bill-weighted';
import {
  calibrationInLargeStatistic,
  calibrationSlopeStatistic,
  differenceStatistic,
  sessionResample,
  spiegelhalterStatistic,
} from '../../../../../src/model/train/calibration-statistics';
import { seededRandom } from '../../../../../src/common/seeded-random';

/** `count` bills of one nowcast each, forecast p, the first `events` of them with the event. */
const group = (firstId: number, count: number, p: number, events: number): BillForecast[] =>
  Array.from({ length: count }, (_, i) => ({ billId: firstId + i, p, y: i < events ? 1 : 0 }));
const at = (statistic: (bills: BillSet, s: BillForecast[]) => (m: Float64Array) => number | null, samples: BillForecast[]) => {
  const bills = new BillSet(samples.map((s) => s.billId));
  return statistic(bills, samples)(bills.ones());
};

describe('calibration-in-the-large', () => {
  it('is logit(observed rate) − logit(forecast) when every forecast is the same', () => {
    // forecast 0.2, half the bills with the event: 0 − logit(0.2) = ln 4
    expect(at(calibrationInLargeStatistic, group(1, 10, 0.2, 5))).toBeCloseTo(Math.log(4), 6);
  });
  it('is 0 for forecasts right on average, and null without both outcomes', () => {
    expect(at(calibrationInLargeStatistic, group(1, 10, 0.3, 3))).toBeCloseTo(0, 6);
    expect(at(calibrationInLargeStatistic, group(1, 10, 0.3, 0))).toBeNull();
  });
  it('weighs each bill 1, however many nowcasts it has', () => {
    // bill 1 forecast 0.5 twice with the event, bill 2 forecast 0.5 once without: observed 1/2, so 0
    const samples: BillForecast[] = [{ billId: 1, p: 0.5, y: 1 }, { billId: 1, p: 0.5, y: 1 }, { billId: 2, p: 0.5, y: 0 }];
    expect(at(calibrationInLargeStatistic, samples)).toBeCloseTo(0, 6);
  });
});

describe('calibration slope', () => {
  it('is 1 for calibrated forecasts and 2 for forecasts half as far from 0.5 on the logit scale as the outcomes', () => {
    expect(at(calibrationSlopeStatistic, [...group(1, 5, 0.2, 1), ...group(11, 5, 0.8, 4)])).toBeCloseTo(1, 5);
    // logit(1/3) = −ln 2 and logit(1/5) = −ln 4: the fit passes through both groups with slope 2
    expect(at(calibrationSlopeStatistic, [...group(1, 5, 1 / 3, 1), ...group(11, 5, 2 / 3, 4)])).toBeCloseTo(2, 5);
  });
});

describe('Spiegelhalter’s z', () => {
  it('is the textbook statistic with one nowcast per bill', () => {
    // five bills at 0.2, three events: Σ(y − p)(1 − 2p) = 0.6 × (3 − 1) = 1.2; Σ(1 − 2p)²p(1 − p) = 5 × 0.36 × 0.16
    expect(at(spiegelhalterStatistic, group(1, 5, 0.2, 3))).toBeCloseTo(1.2 / Math.sqrt(5 * 0.36 * 0.16), 9);
    expect(at(spiegelhalterStatistic, group(1, 5, 0.2, 1))).toBeCloseTo(0, 9);
  });
  it('counts a bill’s repeated nowcasts as one outcome, not as more evidence', () => {
    const once: BillForecast[] = [{ billId: 1, p: 0.2, y: 1 }, { billId: 2, p: 0.3, y: 0 }];
    const twice = once.flatMap((s) => [s, { ...s }]);
    expect(at(spiegelhalterStatistic, twice)).toBeCloseTo(at(spiegelhalterStatistic, once)!, 9);
  });
  it('is null where every forecast is 0.5 (no variance to scale by)', () => {
    expect(at(spiegelhalterStatistic, group(1, 4, 0.5, 2))).toBeNull();
  });
});

describe('session resampling', () => {
  // session A: ten bills forecast 0 that do not happen (Brier 0); session B: ten forecast 0 that do (Brier 1)
  const samples = [...group(1, 10, 0, 0), ...group(101, 10, 0, 10)];
  const sessionOf = new Map(samples.map((s) => [s.billId, s.billId < 100 ? 1 : 2]));
  const bills = new BillSet(samples.map((s) => s.billId));

  it('draws whole sessions, then as many bills as each drawn session holds', () => {
    const draw = sessionResample(bills, sessionOf);
    const random = seededRandom(5);
    const fromA = (m: Float64Array) => samples.reduce((n, s, i) => n + (sessionOf.get(s.billId) === 1 ? m[i] : 0), 0);
    const seen = new Set<number>();
    for (let r = 0; r < 50; r++) {
      const m = draw(random);
      expect(m.reduce((a, b) => a + b, 0)).toBe(20);
      seen.add(fromA(m));
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 10, 20]);
  });

  it('gives the interval that two sessions give, not that of twenty independent bills', () => {
    const statistics = { brier: brierStatistic(bills, samples) };
    const bySession = bootstrap(bills, statistics, { replicates: 400, seed: 3, resample: sessionResample(bills, sessionOf) }).brier;
    const byBill = bootstrap(bills, statistics, { replicates: 400, seed: 3 }).brier;
    // sessions AA, AB, BB give Brier 0, 0.5, 1 with chances 1/4, 1/2, 1/4
    expect([bySession.value, bySession.low, bySession.high]).toEqual([0.5, 0, 1]);
    expect(byBill.low!).toBeGreaterThan(0.2);
    expect(byBill.high!).toBeLessThan(0.8);
  });
});

describe('differences', () => {
  it('is a − b on the same draw, and null where either is missing', () => {
    const m = new Float64Array(1);
    expect(differenceStatistic(() => 0.3, () => 0.1)(m)).toBeCloseTo(0.2, 12);
    expect(differenceStatistic(() => null, () => 0.1)(m)).toBeNull();
  });
});
