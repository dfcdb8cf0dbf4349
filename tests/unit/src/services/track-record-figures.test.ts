import { horizonOf, outputFigures, type ProbabilityScores, type EtaScores, type ResolvedForecast } from '../../../../src/services/track-record-figures';
import { seededRandom } from '../../../../src/common/seeded-random';
import { addDays } from '../../../../src/common/dates';

// Forecasts of three sessions: government bills forecast well, ballot bills worse than the table.
const random = seededRandom(7);
let id = 0;
function forecast(sessionId: number, kind: ResolvedForecast['kind'], output: ResolvedForecast['output'], value: number, tableValue: number, outcome: number | null, waited: number): ResolvedForecast {
  const forecastDate = addDays('2016-01-01', 400 * (sessionId - 28) + (id++ % 200));
  return { billId: id, kind, forecastDate, output, value, tableValue, modelVersion: 1, trainedThrough: '2015-12-31', source: 'backfilled', sessionId, outcome, resolvedOn: addDays(forecastDate, waited) };
}
const forecasts: ResolvedForecast[] = [];
for (const session of [28, 29, 30]) {
  for (let i = 0; i < 60; i++) {
    const enacted = random() < 0.6 ? 1 : 0;
    forecasts.push(forecast(session, 'government', 'royal_assent', enacted ? 0.8 : 0.3, 0.6, enacted, 20 + i * 7));
    const ballot = random() < 0.2 ? 1 : 0;
    forecasts.push(forecast(session, 'pmb_ballot', 'royal_assent', ballot ? 0.1 : 0.4, 0.2, ballot, 100));
    const days = 5 + Math.floor(random() * 60);
    forecasts.push(forecast(session, 'government', 'timeline_eta', days + (random() - 0.5) * 10, 30, i % 10 === 0 ? null : days, days));
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

describe('the track record’s figures', () => {
  const royal = outputFigures('royal_assent', forecasts);
  const eta = outputFigures('timeline_eta', forecasts);

  it('are a plain recomputation of the forecasts, each weighing one', () => {
    const mine = forecasts.filter((f) => f.output === 'royal_assent');
    const overall = royal.overall as ProbabilityScores;
    expect(overall.count).toBe(mine.length);
    expect(overall.brier.value).toBeCloseTo(mean(mine.map((f) => (f.value - f.outcome!) ** 2)), 12);
    expect(overall.tableBrier.value).toBeCloseTo(mean(mine.map((f) => (f.tableValue - f.outcome!) ** 2)), 12);
    expect(overall.skill.value).toBeCloseTo(1 - overall.brier.value! / overall.tableBrier.value!, 12);
    const government = royal.byKind.government as ProbabilityScores;
    expect(government.brier.value).toBeCloseTo(mean(mine.filter((f) => f.kind === 'government').map((f) => (f.value - f.outcome!) ** 2)), 12);
    expect(Object.keys(royal.byKind)).toEqual(['ballot', 'government']);
    // the reliability table: ten equal bins of the forecasts
    const bin3 = overall.reliability[3];
    const in3 = mine.filter((f) => f.value >= 0.3 && f.value < 0.4);
    expect(bin3).toEqual({ lower: 0.3, upper: 0.4, count: in3.length, meanForecast: expect.closeTo(mean(in3.map((f) => f.value)), 12), observedFrequency: expect.closeTo(mean(in3.map((f) => f.outcome!)), 12) });
    expect(overall.reliability.reduce((n, b) => n + b.count, 0)).toBe(mine.length);
  });

  it('tell the model beating the table from losing to it, each with an interval around its figure', () => {
    const government = royal.byKind.government as ProbabilityScores;
    const ballot = royal.byKind.ballot as ProbabilityScores;
    expect(government.skill.value!).toBeGreaterThan(0);
    expect(ballot.skill.value!).toBeLessThan(0);
    for (const s of [government.skill, ballot.skill, government.brier]) {
      expect(s.low!).toBeLessThanOrEqual(s.value!);
      expect(s.high!).toBeGreaterThanOrEqual(s.value!);
    }
    // calibrated-looking forecasts: a slope near or above 1, an intercept near 0
    expect(government.calibrationSlope!).toBeGreaterThan(0.5);
  });

  it('measure the ETA by its median absolute error on the bills that moved, counting those that did not apart', () => {
    const mine = forecasts.filter((f) => f.output === 'timeline_eta');
    const overall = eta.overall as EtaScores;
    const moved = mine.filter((f) => f.outcome !== null);
    expect(overall.count).toBe(moved.length);
    expect(overall.noNextStage).toBe(mine.length - moved.length);
    expect(overall.medianAbsoluteErrorDays.value).toBeCloseTo(median(moved.map((f) => Math.abs(f.value - f.outcome!))), 12);
    expect(overall.tableMedianAbsoluteErrorDays.value).toBeCloseTo(median(moved.map((f) => Math.abs(f.tableValue - f.outcome!))), 12);
    expect(overall.skill.value!).toBeGreaterThan(0);
  });

  it('group by horizon, the days from a forecast to its answer', () => {
    expect(horizonOf({ forecastDate: '2020-01-01', resolvedOn: '2020-01-31' })).toBe('0-30');
    expect(horizonOf({ forecastDate: '2020-01-01', resolvedOn: '2020-02-01' })).toBe('31-90');
    expect(horizonOf({ forecastDate: '2020-01-01', resolvedOn: '2021-06-01' })).toBe('over_365');
    const counts = Object.values(royal.byHorizon).reduce((n, s) => n + (s as ProbabilityScores).count, 0);
    expect(counts).toBe((royal.overall as ProbabilityScores).count);
  });

  it('give no interval from a single session: the intervals resample sessions', () => {
    const one = outputFigures('royal_assent', forecasts.filter((f) => f.sessionId === 28)).overall as ProbabilityScores;
    expect(one.brier.value).not.toBeNull();
    expect(one.brier.low).toBeNull();
    expect(one.skill.high).toBeNull();
  });
});
