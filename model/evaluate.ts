import type { SessionFact } from './bill-facts';
import { addDays } from './dates';
import { BINARY_OUTPUTS, type BinaryOutput } from './labels';
import { binaryReport, brierSkill, type BinaryOutcome, type BinaryReport, meanAbsoluteError, medianAbsoluteError, type RegressionOutcome } from './metrics';
import { kindGroup } from './features';
import { Predictor } from './predictor';
import type { Sample } from './samples';
import { EVALUATION_STEP_DAYS, samplesOf } from './samples';
import { SittingCalendar } from './sitting-calendar';
import { truncateAt } from './truncate';
import { buildSamples, sessionsKnownAt, type TrainingData, trainModel, type TrainingOptions } from './train';
import { pushTo } from './multimap';

/** A baseline cell needs this many training samples; below it the kind's rate is used. */
const MIN_CELL = 20;

export interface OutputEvaluation {
  model: BinaryReport;
  /** (a) the training rate for the bill's kind */
  byKind: BinaryReport;
  /** (b) the training rate for the bill's kind and the furthest main stage reached by the date */
  byKindAndStage: BinaryReport;
  skillVsKind: number | null;
  skillVsKindAndStage: number | null;
}

export interface EtaEvaluation {
  n: number;
  model: { median: number | null; mean: number | null };
  /** median days to the next stage for the kind and last stage, from the training data */
  baseline: { median: number | null; mean: number | null };
}

export interface FoldEvaluation {
  session: { id: number; name: string; startDate: string; endDate: string };
  cutoff: string;
  trainingSamples: number;
  testSamples: number;
  outputs: Record<BinaryOutput, OutputEvaluation>;
  eta: EtaEvaluation;
}

/** The outputs whose calibration is checked by kind. */
export const BY_KIND_OUTPUTS = ['royal_assent', 'next_stage_30d'] as const;

export interface Evaluation {
  folds: FoldEvaluation[];
  pooled: { outputs: Record<BinaryOutput, OutputEvaluation>; eta: EtaEvaluation; testSamples: number };
  /** pooled results by the bill's kind group, for the headline probabilities */
  byKind: Record<string, Record<(typeof BY_KIND_OUTPUTS)[number], { model: BinaryReport; byKindAndStage: BinaryReport }>>;
  /** every test nowcast recomputed from the bill truncated at its date and the sessions known then */
  leakCheck: { nowcasts: number; differing: number };
}

interface Scored {
  binary: Record<BinaryOutput, { model: BinaryOutcome[]; byKind: BinaryOutcome[]; byKindAndStage: BinaryOutcome[] }>;
  eta: { model: RegressionOutcome[]; baseline: RegressionOutcome[] };
}

const emptyScored = (): Scored => ({
  binary: Object.fromEntries(BINARY_OUTPUTS.map((o) => [o, { model: [], byKind: [], byKindAndStage: [] }])) as unknown as Scored['binary'],
  eta: { model: [], baseline: [] },
});

/** Rates of each output by kind and by kind × furthest stage, and median ETAs by kind × last stage. */
function fitBaselines(training: Sample[]) {
  const rate = (key: (s: Sample) => string, output: BinaryOutput) => {
    const cells = new Map<string, { n: number; pos: number }>();
    for (const s of training) {
      const y = s.labels[output];
      if (y === null) continue;
      const cell = cells.get(key(s)) ?? cells.set(key(s), { n: 0, pos: 0 }).get(key(s))!;
      cell.n++;
      cell.pos += y;
    }
    return cells;
  };
  const kindKey = (s: Sample) => s.kind;
  const stageKey = (s: Sample) => `${s.kind}/${s.progress}`;
  const tables = Object.fromEntries(BINARY_OUTPUTS.map((o) => [o, { kind: rate(kindKey, o), stage: rate(stageKey, o) }])) as Record<BinaryOutput, { kind: Map<string, { n: number; pos: number }>; stage: Map<string, { n: number; pos: number }> }>;
  const overall = Object.fromEntries(BINARY_OUTPUTS.map((o) => {
    const known = training.filter((s) => s.labels[o] !== null);
    return [o, known.length ? known.reduce((n, s) => n + s.labels[o]!, 0) / known.length : 0.5];
  })) as Record<BinaryOutput, number>;

  const etas = new Map<string, number[]>();
  for (const s of training) {
    if (s.labels.timeline_eta === null) continue;
    for (const key of [`${s.kind}/${s.lastStage}`, s.kind]) pushTo(etas, key, s.labels.timeline_eta);
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const allEtas = [...training.filter((s) => s.labels.timeline_eta !== null).map((s) => s.labels.timeline_eta!)];

  return {
    byKind: (s: Sample, o: BinaryOutput) => {
      const c = tables[o].kind.get(kindKey(s));
      return c && c.n ? c.pos / c.n : overall[o];
    },
    byKindAndStage: (s: Sample, o: BinaryOutput) => {
      const c = tables[o].stage.get(stageKey(s));
      if (c && c.n >= MIN_CELL) return c.pos / c.n;
      const k = tables[o].kind.get(kindKey(s));
      return k && k.n ? k.pos / k.n : overall[o];
    },
    eta: (s: Sample) => {
      const cell = etas.get(`${s.kind}/${s.lastStage}`);
      if (cell && cell.length >= MIN_CELL) return median(cell);
      const kind = etas.get(s.kind);
      return kind?.length ? median(kind) : allEtas.length ? median(allEtas) : 30;
    },
  };
}

function summarise(scored: Scored): { outputs: Record<BinaryOutput, OutputEvaluation>; eta: EtaEvaluation } {
  const outputs = {} as Record<BinaryOutput, OutputEvaluation>;
  for (const o of BINARY_OUTPUTS) {
    const model = binaryReport(scored.binary[o].model);
    const byKind = binaryReport(scored.binary[o].byKind);
    const byKindAndStage = binaryReport(scored.binary[o].byKindAndStage);
    outputs[o] = { model, byKind, byKindAndStage, skillVsKind: brierSkill(model.brier, byKind.brier), skillVsKindAndStage: brierSkill(model.brier, byKindAndStage.brier) };
  }
  return {
    outputs,
    eta: {
      n: scored.eta.model.length,
      model: { median: medianAbsoluteError(scored.eta.model), mean: meanAbsoluteError(scored.eta.model) },
      baseline: { median: medianAbsoluteError(scored.eta.baseline), mean: meanAbsoluteError(scored.eta.baseline) },
    },
  };
}

/** The last `count` sessions that had ended by the data's as-of date, oldest first. */
export function lastCompleteSessions(sessions: readonly SessionFact[], asOf: string, count: number): SessionFact[] {
  return sessions
    .filter((s) => s.startDate && s.endDate && s.endDate <= asOf)
    .sort((a, b) => (a.startDate! < b.startDate! ? -1 : 1))
    .slice(-count);
}

/**
 * Rolling origin by session: for each test session, train on the facts dated before it began
 * and score nowcasts of its bills at dates during the session, with labels as known at `asOf`.
 * Baselines are fitted on the same training samples as the model.
 */
export function evaluate(
  data: TrainingData,
  options: { asOf: string; sessions?: number; sessionNames?: Record<number, string>; training?: Omit<TrainingOptions, 'cutoff'>; onProgress?: (message: string) => void },
): Evaluation {
  const progress = options.onProgress ?? (() => {});
  const folds: FoldEvaluation[] = [];
  const pooled = emptyScored();
  const knownSessions = sessionsKnownAt(data.sessions, options.asOf);
  const byKind = new Map<string, Record<(typeof BY_KIND_OUTPUTS)[number], { model: BinaryOutcome[]; byKindAndStage: BinaryOutcome[] }>>();
  const leakCheck = { nowcasts: 0, differing: 0 };
  for (const session of lastCompleteSessions(knownSessions, options.asOf, options.sessions ?? 3)) {
    const cutoff = addDays(session.startDate!, -1);
    progress(`session ${session.id}: training on facts up to ${cutoff}`);
    const artifact = trainModel(data, { ...options.training, cutoff, onProgress: (m) => progress(`  ${m}`) });
    const predictor = new Predictor(artifact);
    const calendar = new SittingCalendar(artifact.sittingDates);
    const baselines = fitBaselines(buildSamples(data, cutoff, calendar, EVALUATION_STEP_DAYS));
    const testBills = data.bills.filter((b) => b.facts.introducedSessionId === session.id);
    const test = testBills.flatMap((bill) =>
      samplesOf(bill, { from: session.startDate!, until: session.endDate!, knownUntil: options.asOf, sessions: knownSessions, calendar, stepDays: EVALUATION_STEP_DAYS }),
    );
    const fold = emptyScored();
    const billsById = new Map(testBills.map((b) => [b.facts.billId, b.facts]));
    for (const s of test) {
      const { probabilities, etaDays } = predictor.fromFeatures(s.features, s.kind);
      const facts = billsById.get(s.billId)!;
      const full = JSON.stringify(predictor.nowcast(facts, s.date, knownSessions));
      const then = JSON.stringify(predictor.nowcast(truncateAt(facts, s.date), s.date, sessionsKnownAt(data.sessions, s.date)));
      leakCheck.nowcasts++;
      if (full !== then) leakCheck.differing++;
      const group = kindGroup(s.kind);
      const kindCells = byKind.get(group) ?? byKind.set(group, { royal_assent: { model: [], byKindAndStage: [] }, next_stage_30d: { model: [], byKindAndStage: [] } }).get(group)!;
      for (const o of BY_KIND_OUTPUTS) {
        const y = s.labels[o];
        if (y === null) continue;
        kindCells[o].model.push({ p: probabilities[o], y });
        kindCells[o].byKindAndStage.push({ p: baselines.byKindAndStage(s, o), y });
      }
      for (const o of BINARY_OUTPUTS) {
        const y = s.labels[o];
        if (y === null) continue;
        for (const scored of [fold, pooled]) {
          scored.binary[o].model.push({ p: probabilities[o], y });
          scored.binary[o].byKind.push({ p: baselines.byKind(s, o), y });
          scored.binary[o].byKindAndStage.push({ p: baselines.byKindAndStage(s, o), y });
        }
      }
      if (s.labels.timeline_eta !== null) {
        for (const scored of [fold, pooled]) {
          scored.eta.model.push({ predicted: etaDays, actual: s.labels.timeline_eta });
          scored.eta.baseline.push({ predicted: baselines.eta(s), actual: s.labels.timeline_eta });
        }
      }
    }
    folds.push({
      session: { id: session.id, name: options.sessionNames?.[session.id] ?? String(session.id), startDate: session.startDate!, endDate: session.endDate! },
      cutoff,
      trainingSamples: artifact.sampleCounts.all,
      testSamples: test.length,
      ...summarise(fold),
    });
    progress(`session ${session.id}: ${test.length} test nowcasts scored`);
  }
  const kinds = Object.fromEntries(
    [...byKind.keys()].sort().map((k) => [k, Object.fromEntries(BY_KIND_OUTPUTS.map((o) => [o, { model: binaryReport(byKind.get(k)![o].model), byKindAndStage: binaryReport(byKind.get(k)![o].byKindAndStage) }]))]),
  ) as Evaluation['byKind'];
  return { folds, pooled: { ...summarise(pooled), testSamples: folds.reduce((n, f) => n + f.testSamples, 0) }, byKind: kinds, leakCheck };
}
