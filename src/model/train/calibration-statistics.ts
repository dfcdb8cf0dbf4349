/**
 * Calibration measures that can be judged against sampling noise, each bill weighing 1 (its
 * nowcasts share one unit of weight, as in bill-weighted.ts), and a bootstrap that resamples test
 * sessions before bills.
 *
 * An ECE over ten bins grows with noise alone (a perfectly calibrated forecaster of 40 bills shows
 * 0.08–0.13), so it cannot carry a target. These can: the calibration intercept (outcome on
 * logit(forecast) with the slope fixed at 1: calibration-in-the-large, 0 when the forecasts are
 * right on average), the calibration slope (1 when they are neither too extreme nor too timid),
 * and Spiegelhalter's z, which is approximately standard normal when the forecasts are calibrated.
 */
import { type BillForecast, type BillSet, type BillStatistic, type Multiplicity, sampleWeights } from './bill-weighted';
import { fitLogistic, logit } from '../serve/calibration';

/** Each sample's weight under a multiplicity: its share of its bill times how often the bill was drawn. */
function weightsUnder(bills: BillSet, samples: readonly BillForecast[]): (m: Multiplicity) => Float64Array {
  const { billOf, share } = sampleWeights(bills, samples.map((s) => s.billId));
  return (m) => Float64Array.from(billOf, (b, i) => m[b] * share[i]);
}

/** a − b on the same bills: paired, so its interval is the comparison's. */
export function differenceStatistic(a: BillStatistic, b: BillStatistic): BillStatistic {
  return (m) => {
    const x = a(m);
    const y = b(m);
    return x === null || y === null ? null : x - y;
  };
}

/**
 * Calibration-in-the-large: the α of y ~ σ(α + logit(p)), fitted as the calibration's logistic fits are. 0 when the forecasts are right on average; positive when events happen more often than
 * forecast. Null without both outcomes (α would be infinite).
 */
export function calibrationInLargeStatistic(bills: BillSet, samples: readonly BillForecast[]): BillStatistic {
  const weights = weightsUnder(bills, samples);
  const x = samples.map((s) => logit(s.p));
  const y = samples.map((s) => s.y);
  return (m) => {
    const w = weights(m);
    if (!bothOutcomes(samples, w)) return null;
    return fitLogistic(x, y, Array.from(w), 0, { fixedSlope: 1 }).v;
  };
}

/** The calibration slope: the β of y ~ σ(α + β·logit(p)). 1 is ideal; below 1 the forecasts are too extreme. */
export function calibrationSlopeStatistic(bills: BillSet, samples: readonly BillForecast[]): BillStatistic {
  const weights = weightsUnder(bills, samples);
  const x = samples.map((s) => logit(s.p));
  const y = samples.map((s) => s.y);
  return (m) => {
    const w = weights(m);
    if (!bothOutcomes(samples, w)) return null;
    const { u } = fitLogistic(x, y, Array.from(w), 0);
    return Number.isFinite(u) ? u : null;
  };
}

/**
 * Spiegelhalter's z: Σ w(y − p)(1 − 2p) over its standard deviation under calibration. A bill's
 * nowcasts share one outcome, so their terms are not independent: within a bill they are taken as
 * perfectly correlated (the bill's standard deviation is the sum of its terms'), bills as
 * independent. With one nowcast per bill this is the textbook statistic. |z| > 2 rejects
 * calibration at about the 5% level.
 */
export function spiegelhalterStatistic(bills: BillSet, samples: readonly BillForecast[]): BillStatistic {
  const { billOf, share } = sampleWeights(bills, samples.map((s) => s.billId));
  return (m) => {
    let numerator = 0;
    const sd = new Float64Array(bills.size);
    for (let i = 0; i < samples.length; i++) {
      const { p, y } = samples[i];
      numerator += m[billOf[i]] * share[i] * (y - p) * (1 - 2 * p);
      sd[billOf[i]] += share[i] * (1 - 2 * p) * Math.sqrt(p * (1 - p));
    }
    let variance = 0;
    // a bill drawn twice is the same outcome twice: its deviation doubles, its variance quadruples
    for (let b = 0; b < bills.size; b++) variance += (m[b] * sd[b]) ** 2;
    return variance > 0 ? numerator / Math.sqrt(variance) : null;
  };
}

function bothOutcomes(samples: readonly BillForecast[], w: Float64Array): boolean {
  let events = 0;
  let total = 0;
  for (let i = 0; i < samples.length; i++) {
    events += w[i] * samples[i].y;
    total += w[i];
  }
  return total > 0 && events > 0 && events < total;
}

/**
 * A bootstrap draw (bootstrap's `resample`) that resamples sessions, then bills within each drawn
 * session: the figures then vary as much as another set of sessions would make them, not only
 * another set of bills of the same sessions (a session's pass rate moves all its bills at once).
 */
export function sessionResample(bills: BillSet, sessionOfBill: ReadonlyMap<number, number>): (random: () => number) => Multiplicity {
  const bySession = new Map<number, number[]>();
  for (const [billId, session] of sessionOfBill) {
    const list = bySession.get(session) ?? bySession.set(session, []).get(session)!;
    list.push(bills.indexOf(billId));
  }
  const sessions = [...bySession.keys()].sort((a, b) => a - b).map((s) => bySession.get(s)!);
  return (random) => {
    const m = new Float64Array(bills.size);
    for (let s = 0; s < sessions.length; s++) {
      const drawn = sessions[Math.floor(random() * sessions.length)];
      for (let i = 0; i < drawn.length; i++) m[drawn[Math.floor(random() * drawn.length)]] += 1;
    }
    return m;
  };
}
