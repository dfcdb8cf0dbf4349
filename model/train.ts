import { NeuralNetwork } from 'brain.js';
import type { SessionFact, TrainingBill } from './bill-facts';
import { billState } from './bill-state';
import { calibrate, fitPlatt } from './calibration';
import { addDays, daysBetween } from './dates';
import { FEATURE_NAMES, FEATURE_SCHEMA_VERSION } from './features';
import { BINARY_OUTPUTS, type BinaryOutput } from './labels';
import { auc, brier } from './metrics';
import { ETA_CAP_DAYS, type ModelArtifact } from './model-artifact';
import { samplesOf, type Sample } from './samples';
import { withSeededRandom } from './seeded-random';
import { SittingCalendar } from './sitting-calendar';

export interface TrainingData {
  bills: TrainingBill[];
  sessions: SessionFact[];
}

export interface TrainingOptions {
  /** learn only from facts dated on or before this day */
  cutoff: string;
  seed?: number;
  /** the most recent days before the cutoff, held out to calibrate the networks */
  calibrationDays?: number;
  hiddenLayers?: number[];
  iterations?: number;
  onProgress?: (message: string) => void;
}

export const DEFAULT_SEED = 20211231;
/**
 * Chosen by `npm run evaluate` on real sessions: 80 iterations fitted the training periods
 * better but calibrated worse on later sessions; a one-year calibration window was thrown off
 * by the 2019 dissolutions (almost every bill fell), two years were steadier.
 */
export const DEFAULT_ITERATIONS = 30;
export const DEFAULT_CALIBRATION_DAYS = 730;

type BrainNet = NeuralNetwork<number[], number[]>;

/** What was known of the sessions on a day: no session that had not begun, no end still to come. */
export function sessionsKnownAt(sessions: readonly SessionFact[], date: string): SessionFact[] {
  return sessions
    .filter((s) => s.startDate && s.startDate <= date)
    .map((s) => ({ ...s, endDate: s.endDate && s.endDate <= date ? s.endDate : null }));
}

/** Every sitting date on or before the cutoff, across all bills. */
export function sittingDatesUpTo(bills: readonly TrainingBill[], cutoff: string): string[] {
  const days = new Set<string>();
  for (const bill of bills) for (const stage of bill.facts.stages) for (const d of stage.dates) if (d <= cutoff) days.add(d);
  return [...days].sort();
}

export function buildSamples(data: TrainingData, cutoff: string, calendar: SittingCalendar, from?: string): Sample[] {
  const sessions = sessionsKnownAt(data.sessions, cutoff);
  return data.bills.flatMap((bill) => samplesOf(bill, { from, until: cutoff, knownUntil: cutoff, sessions, calendar }));
}

const median = (values: number[]) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Medians by kind that the risk indicators compare a bill against. */
function kindNorms(data: TrainingData, cutoff: string): ModelArtifact['norms'] {
  const committee = new Map<string, number[]>();
  const gaps = new Map<string, number[]>();
  const sessions = sessionsKnownAt(data.sessions, cutoff);
  for (const { facts } of data.bills) {
    const state = billState(facts, cutoff, sessions);
    const sittings = (state.sittings.get('committee:first') ?? 0) + (state.sittings.get('committee:second') ?? 0);
    if (sittings) (committee.get(facts.kind) ?? committee.set(facts.kind, []).get(facts.kind)!).push(sittings);
    const days = [...new Set(state.mainEvents.map((e) => e.date))];
    for (let i = 1; i < days.length; i++) (gaps.get(facts.kind) ?? gaps.set(facts.kind, []).get(facts.kind)!).push(daysBetween(days[i - 1], days[i]));
  }
  const medians = (m: Map<string, number[]>) => Object.fromEntries([...m].map(([k, v]) => [k, median(v)]));
  return { committeeSittings: medians(committee), mainStageGapDays: medians(gaps) };
}

/**
 * With no samples for an output (a tiny data set), the network learns one neutral row instead,
 * so a model can still be built and served; its sample count of 0 says what it is worth.
 */
function trainNet(rows: { input: number[]; output: number[] }[], options: { seed: number; hiddenLayers: number[]; iterations: number; neutral: number }): BrainNet {
  if (!rows.length) rows = [{ input: FEATURE_NAMES.map(() => 0), output: [options.neutral] }];
  const net = new NeuralNetwork<number[], number[]>({ hiddenLayers: options.hiddenLayers, activation: 'sigmoid' });
  withSeededRandom(options.seed, () =>
    net.train(rows, { iterations: options.iterations, errorThresh: 0.0005, learningRate: 0.3, momentum: 0.1, log: false }),
  );
  return net;
}

export const etaTarget = (days: number) => Math.min(1, Math.log1p(Math.max(0, days)) / Math.log1p(ETA_CAP_DAYS));
export const etaFromOutput = (output: number) => Math.expm1(Math.min(1, Math.max(0, output)) * Math.log1p(ETA_CAP_DAYS));

/**
 * Trains every network on samples dated up to the calibration period, then fits each
 * probability's calibration on the calibration period (the most recent `calibrationDays`).
 * Deterministic for a given seed and data.
 */
export function trainModel(data: TrainingData, options: TrainingOptions): ModelArtifact {
  const seed = options.seed ?? DEFAULT_SEED;
  const hiddenLayers = options.hiddenLayers ?? [12];
  const iterations = options.iterations ?? DEFAULT_ITERATIONS;
  const progress = options.onProgress ?? (() => {});
  const sittingDates = sittingDatesUpTo(data.bills, options.cutoff);
  const calendar = new SittingCalendar(sittingDates);
  const samples = buildSamples(data, options.cutoff, calendar);
  const calibrationStart = addDays(options.cutoff, -(options.calibrationDays ?? DEFAULT_CALIBRATION_DAYS));
  const fitting = samples.filter((s) => s.date < calibrationStart);
  const holdout = samples.filter((s) => s.date >= calibrationStart);
  progress(`${samples.length} samples: ${fitting.length} to train, ${holdout.length} to calibrate`);

  const sampleCounts: Record<string, number> = { all: samples.length, train: fitting.length, calibrate: holdout.length };
  const networks = {} as ModelArtifact['networks'];
  const calibration = {} as ModelArtifact['calibration'];
  const calibrationPeriodMetrics = {} as ModelArtifact['calibrationPeriodMetrics'];
  BINARY_OUTPUTS.forEach((output: BinaryOutput, i) => {
    const rows = fitting.filter((s) => s.labels[output] !== null).map((s) => ({ input: s.features, output: [s.labels[output]!] }));
    sampleCounts[output] = rows.length;
    const net = trainNet(rows, { seed: seed + i, hiddenLayers, iterations, neutral: 0.5 });
    const held = holdout.filter((s) => s.labels[output] !== null);
    const raw = held.map((s) => net.run(s.features)[0]);
    calibration[output] = fitPlatt(
      raw,
      held.map((s) => s.labels[output]!),
    );
    const scored = held.map((s, j) => ({ p: calibrate(raw[j], calibration[output]), y: s.labels[output]! }));
    calibrationPeriodMetrics[output] = { n: scored.length, auc: auc(scored), brier: brier(scored) };
    networks[output] = net.toJSON();
    progress(`${output}: ${rows.length} samples, calibrated on ${held.length}`);
  });

  const etaRows = samples.filter((s) => s.labels.timeline_eta !== null).map((s) => ({ input: s.features, output: [etaTarget(s.labels.timeline_eta!)] }));
  sampleCounts.timeline_eta = etaRows.length;
  const eta = trainNet(etaRows, { seed: seed + BINARY_OUTPUTS.length, hiddenLayers, iterations, neutral: etaTarget(30) });
  progress(`timeline_eta: ${etaRows.length} samples`);

  return {
    featureSchemaVersion: FEATURE_SCHEMA_VERSION,
    cutoff: options.cutoff,
    seed,
    featureNames: [...FEATURE_NAMES],
    sittingDates,
    networks,
    calibration,
    eta: eta.toJSON(),
    norms: kindNorms(data, options.cutoff),
    sampleCounts,
    calibrationPeriodMetrics,
  };
}
