/** How much P(Royal Assent) moves with the training seed, for the model card. */
import { Predictor } from '../serve/predictor';
import { EVALUATION_STEP_DAYS, samplesOf } from '../train/samples';
import { SittingCalendar } from '../serve/sitting-calendar';
import { sessionsKnownAt, type TrainingData, trainModel, type TrainingOptions } from '../train/train';

export interface SeedSpread {
  seeds: number[];
  /** nowcasts compared: the live bills of the latest sessions, every 14 days up to the cutoff */
  n: number;
  /** mean and largest (max − min) of P(Royal Assent) across the seeds, per nowcast */
  meanSpread: number;
  maxSpread: number;
}

/**
 * How much P(Royal Assent) depends on the seed: the model trained on the same data with each
 * seed, every nowcast of the bills of the last `sessions` sessions started by the cutoff compared.
 */
export function seedSpread(data: TrainingData, options: Omit<TrainingOptions, 'seed'> & { seeds: number[]; sessions?: number }): SeedSpread {
  const known = sessionsKnownAt(data.sessions, options.cutoff).sort((a, b) => (a.startDate! < b.startDate! ? -1 : 1));
  const recent = new Set(known.slice(-(options.sessions ?? 2)).map((s) => s.id));
  const bills = data.bills.filter((b) => recent.has(b.facts.introducedSessionId)).sort((a, b) => a.facts.billId - b.facts.billId);
  const predictions = options.seeds.map((seed) => {
    const artifact = trainModel(data, { ...options, seed });
    const predictor = new Predictor(artifact);
    const calendar = new SittingCalendar(artifact.sittingDates);
    return bills
      .flatMap((bill) => samplesOf(bill, { until: options.cutoff, knownUntil: options.cutoff, sessions: known, calendar, stepDays: EVALUATION_STEP_DAYS }))
      .map((s) => predictor.fromFeatures(s.features, s.kind).probabilities.royal_assent);
  });
  const spreads = predictions[0].map((_, i) => Math.max(...predictions.map((p) => p[i])) - Math.min(...predictions.map((p) => p[i])));
  return {
    seeds: options.seeds,
    n: spreads.length,
    meanSpread: spreads.length ? spreads.reduce((a, b) => a + b, 0) / spreads.length : 0,
    maxSpread: spreads.length ? Math.max(...spreads) : 0,
  };
}
