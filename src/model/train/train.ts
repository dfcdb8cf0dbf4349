/** One training of a model version: its samples, seeded brain.js ensembles for every output, their calibration on held-out bills, and what the artifact keeps besides. */
import { NeuralNetwork } from 'brain.js';
import { fitKindStageTable } from './kind-stage-table-fit';
import type { SessionFact, TrainingBill } from '../serve/bill-facts';
import { calibrateForKind, fitByKind, recencyWeight } from '../serve/calibration';
import { addDays, daysBetween } from '../../common/dates';
import { FEATURE_NAMES, FEATURE_SCHEMA_VERSION, inputsFor, kindGroup } from '../serve/features';
import { BINARY_OUTPUTS, type BinaryOutput } from '../serve/labels';
import { auc, brier } from './metrics';
import { ETA_BIN_EDGES, type ModelArtifact } from '../serve/model-artifact';
import { ETA_INTERVALS } from '../serve/next-stage';
import { samplesOf, type Sample } from './samples';
import { seededRandom, withSeededRandom } from '../../common/seeded-random';
import { SittingCalendar } from '../serve/sitting-calendar';
import { billAsOf } from '../serve/truncate';
import { typicalBills } from '../serve/typical-bill';
import { type BrainNet, ensembleRun } from '../serve/ensemble';
import { pushTo } from '../../common/multimap';

export interface TrainingData {
  bills: TrainingBill[];
  sessions: SessionFact[];
}

export interface TrainingOptions {
  /** learn only from facts dated on or before this day */
  cutoff: string;
  seed?: number;
  /** sessions that ended within this many days before the cutoff lend bills to the calibration set: every output's (else DEFAULT_CALIBRATION_DAYS and FATE_CALIBRATION_DAYS) */
  calibrationDays?: number;
  /** networks averaged per output, each from its own seed: this many for every output (else DEFAULT_ENSEMBLE_SIZES) */
  ensembleSize?: number;
  hiddenLayers?: number[];
  iterations?: number;
  /** decay of the input weights per output, none for an output not named (else DEFAULT_WEIGHT_DECAY) */
  weightDecay?: Partial<Record<BinaryOutput | 'timeline_eta', number>>;
  /** half-life of a held-out bill's weight in its kind's calibration, per output; alike for an output not named (else CALIBRATION_HALF_LIFE_DAYS) */
  calibrationHalfLifeDays?: Partial<Record<BinaryOutput, number>>;
  /** train only these outputs' networks (a part of a training run side by side: src/model/train/train-parts.ts); every output when not given */
  outputs?: readonly TrainedOutput[];
  onProgress?: (message: string) => void;
}

/** Everything a training fits networks for: the probabilities and the ETA. */
export type TrainedOutput = BinaryOutput | 'timeline_eta';
export const TRAINED_OUTPUTS: readonly TrainedOutput[] = [...BINARY_OUTPUTS, 'timeline_eta'];

export const DEFAULT_SEED = 20211231;
/**
 * Chosen by `npm run evaluate` on real sessions: 80 iterations fitted the training periods
 * better but calibrated worse on later sessions.
 */
export const DEFAULT_ITERATIONS = 30;
/**
 * Bills of the sessions that ended in the last two years before the cutoff calibrate
 * next_stage_30d, whose pace drifts between sessions: a longer window calibrates it on a pace
 * the current sessions no longer keep.
 */
export const DEFAULT_CALIBRATION_DAYS = 730;
/**
 * The fate outputs (FATE_OUTPUTS) calibrate on the sessions that ended in the last eight years or
 * so: only ended sessions give them labels, and a few years hold too few bills of each kind (a
 * session has about twenty ballot bills) to fit a kind's own scaling. next_stage_30d keeps the
 * recent sessions (DEFAULT_CALIBRATION_DAYS): its pace drifts between sessions.
 */
export const FATE_CALIBRATION_DAYS = 3000;
/**
 * Half-life, in days before the cutoff, of a held-out bill's weight in its kind's calibration
 * adjustment (by when its session ended), for an output named here; an output not named weighs
 * its held-out bills alike. A kind's pass rate drifts between sessions: on the design folds
 * (2014-15, 2015-16, 2016-17) weighing Royal Assent's recent sessions more took government bills'
 * ECE from 0.030 to 0.025 and ballot bills' from 0.037 to 0.024, their Brier ratios to the kind ×
 * stage table from 1.015 to 1.001 and 0.870 to 0.868 (half-lives of 365, 1100 and 1500 days, and
 * a window of 1500 days instead of weights, gave figures within 0.01 of these).
 */
export const CALIBRATION_HALF_LIFE_DAYS: Readonly<Partial<Record<BinaryOutput, number>>> = { royal_assent: 730 };
/** One in this many of those bills (by a hash of its id) is held out to calibrate. */
export const CALIBRATION_SHARE = 4;
/**
 * Networks averaged per output, and their hidden layers: brain.js starts each network from its
 * seed's random weights, and one network's answer for a bill unlike most moves with the seed;
 * averaging several small ones narrows that, at the CPU of training each (the model card's Seed
 * spread section measures what is left).
 */
export const DEFAULT_ENSEMBLE_SIZE = 3;
export const DEFAULT_HIDDEN_LAYERS: readonly number[] = [6];
/**
 * Royal Assent, the headline probability, averages nine: it is the figure the seed spread targets
 * of the model card are set on, and the bills the data says little about (a carried-over
 * government bill, a ballot bill at report) are where three networks disagree most. Each further
 * network costs another training of the output at the first start.
 */
export const DEFAULT_ENSEMBLE_SIZES: Readonly<Partial<Record<BinaryOutput | 'timeline_eta', number>>> = { royal_assent: 9 };
export const ensembleSizeOf = (output: BinaryOutput | 'timeline_eta', ensembleSize?: number) => ensembleSize ?? DEFAULT_ENSEMBLE_SIZES[output] ?? DEFAULT_ENSEMBLE_SIZE;

/**
 * Weight decay of the input weights: after each pass over the rows every weight from an input to a
 * hidden unit shrinks by the factor 1 − decay × learning rate (the biases and the hidden-to-output
 * weights do not). Where the data has few bills like the one asked about (a carried-over
 * government bill on the first days of a session), each seed's networks fill the gap differently;
 * with small input weights they extrapolate alike, which is what the seed spread of P(Royal
 * Assent) in the model card measures. Only Royal Assent decays: it is the output judged on that spread.
 */
export const DEFAULT_WEIGHT_DECAY: Readonly<Partial<Record<BinaryOutput | 'timeline_eta', number>>> = { royal_assent: 1.6 };
const weightDecayOf = (output: BinaryOutput | 'timeline_eta', options: TrainingOptions) => (options.weightDecay ?? DEFAULT_WEIGHT_DECAY)[output] ?? 0;

/**
 * Outputs whose answer is the bill's fate: their labels are known early only for bills whose fate
 * came early (Royal Assent in a running session is known, failure is not until the session ends),
 * so they learn only from sessions that had ended by the cutoff. next_stage_30d waits 30 days at most.
 */
const FATE_OUTPUTS: ReadonlySet<BinaryOutput> = new Set(['royal_assent', 'stall_risk', 'withdrawal_risk', 'amendment_risk', 'close_vote']);

/** Share of the iterations at each learning rate, in order. */
const LEARNING_RATE_STEPS: readonly [number, number][] = [
  [0.6, 0.3],
  [0.25, 0.1],
  [0.15, 0.03],
];

/** What was known of the sessions on a day: no session that had not begun, no end still to come, no dissolution not yet announced, no Friday still to sit. */
export function sessionsKnownAt(sessions: readonly SessionFact[], date: string): SessionFact[] {
  return sessions
    .filter((s) => s.startDate && s.startDate <= date)
    .map((s) => ({
      ...s,
      endDate: s.endDate && s.endDate <= date ? s.endDate : null,
      ...(s.dissolution !== undefined && { dissolution: s.dissolution && s.dissolution.announced <= date ? s.dissolution : null }),
      ...(s.pmbFridays && { pmbFridays: s.pmbFridays.filter((d) => d <= date) }),
    }))
    .sort((a, b) => a.id - b.id);
}

/** The last `count` sessions that had ended by the data's as-of date, oldest first. */
export function lastCompleteSessions(sessions: readonly SessionFact[], asOf: string, count: number): SessionFact[] {
  return sessions
    .filter((s) => s.startDate && s.endDate && s.endDate <= asOf)
    .sort((a, b) => (a.startDate! < b.startDate! ? -1 : 1))
    .slice(-count);
}

/** Every sitting date on or before the cutoff, across all bills. */
export function sittingDatesUpTo(bills: readonly TrainingBill[], cutoff: string): string[] {
  const days = new Set<string>();
  for (const bill of bills) for (const stage of bill.facts.stages) for (const d of stage.dates) if (d <= cutoff) days.add(d);
  return [...days].sort();
}

/** Bills in a fixed order (by id), whatever order the database returned them in. */
const byBillId = (bills: readonly TrainingBill[]) => [...bills].sort((a, b) => a.facts.billId - b.facts.billId);

export function buildSamples(data: TrainingData, cutoff: string, calendar: SittingCalendar, stepDays?: number): Sample[] {
  const sessions = sessionsKnownAt(data.sessions, cutoff);
  return byBillId(data.bills).flatMap((bill) => samplesOf(bill, { until: cutoff, knownUntil: cutoff, sessions, calendar, stepDays }));
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
  for (const { facts: all } of byBillId(data.bills)) {
    const { facts, state } = billAsOf(all, cutoff, sessions);
    const sittings = (state.sittings.get('committee:first') ?? 0) + (state.sittings.get('committee:second') ?? 0);
    if (sittings) pushTo(committee, facts.kind, sittings);
    const days = [...new Set(state.mainEvents.map((e) => e.date))];
    for (let i = 1; i < days.length; i++) pushTo(gaps, facts.kind, daysBetween(days[i - 1], days[i]));
  }
  const medians = (m: Map<string, number[]>) => Object.fromEntries([...m].map(([k, v]) => [k, median(v)]));
  return { committeeSittings: medians(committee), mainStageGapDays: medians(gaps) };
}

/**
 * With no samples for an output (a tiny data set), the network learns one neutral row instead,
 * so a model can still be built and served; its sample count of 0 says what it is worth.
 * `startFromShares`: each output's bias starts at the log-odds of its share of the rows (smoothed),
 * so a network of several outputs (the ETA's intervals) starts from the training distribution
 * instead of 0.5 for every output, whose median is the middle of the scale, whatever the data.
 */
function trainNet(rows: { input: number[]; output: number[] }[], options: { seed: number; hiddenLayers: number[]; iterations: number; neutral: number[]; weightDecay?: number; startFromShares?: boolean }): BrainNet {
  if (!rows.length) rows = [{ input: FEATURE_NAMES.map(() => 0), output: options.neutral }];
  const net = new NeuralNetwork<number[], number[]>({ hiddenLayers: options.hiddenLayers, activation: 'sigmoid' });
  const shuffled = seededShuffle(rows, options.seed);
  const decay = options.weightDecay ?? 0;
  withSeededRandom(options.seed, () => {
    if (options.startFromShares) {
      net.prepTraining(shuffled, { errorThresh: 0.0005, momentum: 0.1, log: false });
      const biases = net.biases[net.biases.length - 1];
      for (let k = 0; k < biases.length; k++) {
        const share = (rows.reduce((sum, row) => sum + row.output[k], 0) + 0.5) / (rows.length + 1);
        biases[k] = Math.log(share / (1 - share));
      }
    }
    // the learning rate falls in steps: row-by-row updates at a high rate leave the last rows' noise in the weights
    if (decay > 0) return trainWithDecay(net, shuffled, options.iterations, decay);
    for (const [share, learningRate] of LEARNING_RATE_STEPS) {
      const iterations = Math.max(1, Math.round(options.iterations * share));
      net.train(shuffled, { iterations, errorThresh: 0.0005, learningRate, momentum: 0.1, log: false });
    }
  });
  return net;
}

/** brain.js's own passes over the rows (as net.train makes them), each followed by the decay of the input weights. */
function trainWithDecay(net: BrainNet, rows: { input: number[]; output: number[] }[], iterations: number, decay: number): void {
  const { preparedData } = net.prepTraining(rows, { errorThresh: 0.0005, momentum: 0.1, log: false });
  for (const [share, learningRate] of LEARNING_RATE_STEPS) {
    net.trainOpts.learningRate = learningRate;
    const shrink = Math.max(0, 1 - decay * learningRate);
    for (let pass = Math.max(1, Math.round(iterations * share)); pass > 0; pass--) {
      net.trainPatterns(preparedData);
      for (const weights of net.weights[1]) for (let k = 0; k < weights.length; k++) weights[k] *= shrink;
    }
  }
}

/** Fisher–Yates with a seeded generator: brain.js learns row by row, and chronological order would weigh the last rows most. */
function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed ^ 0x5bd1e995);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A fixed pseudo-random share of bills, the same in every training: the calibration set is split by bill, never by date. */
export const isCalibrationBill = (billId: number) => Math.floor(seededRandom(billId)() * CALIBRATION_SHARE) === 0;

/**
 * The ETA networks' target: 1 for the interval of ETA_BIN_EDGES the wait falls in (the last one
 * for a longer wait), or for the last output when no next stage comes (null); 0 for the others.
 */
export function etaTarget(days: number | null): number[] {
  let bin = ETA_INTERVALS;
  if (days !== null) for (bin = 0; bin < ETA_INTERVALS - 1 && days > ETA_BIN_EDGES[bin + 1]; bin++);
  return Array.from({ length: ETA_INTERVALS + 1 }, (_, i) => (i === bin ? 1 : 0));
}

/**
 * Trains every network, then fits each probability's calibration (per kind where the data allow)
 * on held-out bills of sessions that had ended by the cutoff, whose labels are all known.
 * Deterministic for a given seed and data: bills in id order, seeded shuffles, seeded weights.
 */
export function trainModel(data: TrainingData, options: TrainingOptions): ModelArtifact {
  const seed = options.seed ?? DEFAULT_SEED;
  const hiddenLayers = options.hiddenLayers ?? [...DEFAULT_HIDDEN_LAYERS];
  const iterations = options.iterations ?? DEFAULT_ITERATIONS;
  const progress = options.onProgress ?? (() => {});
  const sittingDates = sittingDatesUpTo(data.bills, options.cutoff);
  const calendar = new SittingCalendar(sittingDates);
  const samples = buildSamples(data, options.cutoff, calendar);
  const known = sessionsKnownAt(data.sessions, options.cutoff);
  /** the end of each session that had ended by the cutoff */
  const ended = new Map(known.flatMap((s) => (s.endDate ? [[s.id, s.endDate] as const] : [])));
  /** the samples an output trains on and the held-out ones it calibrates on, split by bill */
  const split = (calibrationDays: number) => {
    const from = addDays(options.cutoff, -calibrationDays);
    const recentlyEnded = new Set(known.filter((s) => s.endDate && s.endDate >= from).map((s) => s.id));
    const calibrating = (s: Sample) => recentlyEnded.has(s.sessionId) && isCalibrationBill(s.billId);
    return { fitting: samples.filter((s) => !calibrating(s)), holdout: samples.filter(calibrating) };
  };
  const { fitting, holdout } = split(options.calibrationDays ?? DEFAULT_CALIBRATION_DAYS);
  const fateSplit = options.calibrationDays === undefined ? split(FATE_CALIBRATION_DAYS) : { fitting, holdout };
  progress(`${samples.length} samples: ${fitting.length} to train, ${holdout.length} to calibrate (fate outputs: ${fateSplit.fitting.length} and ${fateSplit.holdout.length})`);

  const sampleCounts: Record<string, number> = { all: samples.length, train: fitting.length, calibrate: holdout.length };
  const networks = {} as ModelArtifact['networks'];
  const calibration = {} as ModelArtifact['calibration'];
  const calibrationPeriodMetrics = {} as ModelArtifact['calibrationPeriodMetrics'];
  const trained = new Set(options.outputs ?? TRAINED_OUTPUTS);
  BINARY_OUTPUTS.forEach((output: BinaryOutput, i) => {
    if (!trained.has(output)) return;
    const usable = (s: Sample) => s.labels[output] !== null && (!FATE_OUTPUTS.has(output) || ended.has(s.sessionId));
    const sets = FATE_OUTPUTS.has(output) ? fateSplit : { fitting, holdout };
    const rows = sets.fitting.filter(usable).map((s) => ({ input: inputsFor(output, s.features), output: [s.labels[output]!] }));
    sampleCounts[output] = rows.length;
    const members = ensembleSizeOf(output, options.ensembleSize);
    const nets = Array.from({ length: members }, (_, m) => trainNet(rows, { seed: seed + 100 * m + i, hiddenLayers, iterations, neutral: [0.5], weightDecay: weightDecayOf(output, options) }));
    const held = sets.holdout.filter(usable);
    const raw = held.map((s) => ensembleRun(nets, inputsFor(output, s.features)));
    const halfLife = (options.calibrationHalfLifeDays ?? CALIBRATION_HALF_LIFE_DAYS)[output];
    calibration[output] = fitByKind(
      raw,
      held.map((s) => s.labels[output]!),
      held.map((s) => kindGroup(s.kind)),
      held.map((s) => s.billId),
      halfLife === undefined ? undefined : held.map((s) => recencyWeight(daysBetween(ended.get(s.sessionId)!, options.cutoff), halfLife)),
    );
    const scored = held.map((s, j) => ({ p: calibrateForKind(raw[j], calibration[output], kindGroup(s.kind)), y: s.labels[output]! }));
    calibrationPeriodMetrics[output] = { n: scored.length, auc: auc(scored), brier: brier(scored) };
    networks[output] = nets.map((net) => net.toJSON());
    progress(`${output}: ${rows.length} samples, ${members} networks, calibrated on ${held.length}`);
  });

  const eta: BrainNet[] = [];
  if (trained.has('timeline_eta')) {
    // the waits of bills that moved and the bills known never to move again: how the mass past 30 days splits between them
    const etaRows = samples.filter((s) => s.labels.timeline_eta !== null || s.labels.no_next_stage).map((s) => ({ input: s.features, output: etaTarget(s.labels.timeline_eta) }));
    sampleCounts.timeline_eta = etaRows.length;
    for (let m = 0; m < ensembleSizeOf('timeline_eta', options.ensembleSize); m++) {
      eta.push(trainNet(etaRows, { seed: seed + 100 * m + BINARY_OUTPUTS.length, hiddenLayers, iterations, neutral: etaTarget(30), weightDecay: weightDecayOf('timeline_eta', options), startFromShares: true }));
    }
    progress(`timeline_eta: ${etaRows.length} samples`);
  }

  return {
    featureSchemaVersion: FEATURE_SCHEMA_VERSION,
    cutoff: options.cutoff,
    seed,
    featureNames: [...FEATURE_NAMES],
    sittingDates,
    networks,
    calibration,
    eta: eta.map((net) => net.toJSON()),
    typicalBills: typicalBills(byBillId(data.bills), known, options.cutoff),
    kindStageTable: fitKindStageTable(samples),
    norms: kindNorms(data, options.cutoff),
    sampleCounts,
    calibrationPeriodMetrics,
  };
}
