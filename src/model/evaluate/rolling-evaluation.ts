/** The rolling evaluation by session: train before each test session, score its bills' nowcasts against the baselines, and the leak check beside it (leak-check.ts). */
import { addDays, daysBetween } from '../../common/dates';
import { BINARY_OUTPUTS, type BinaryOutput } from '../serve/labels';
import { BillSet, billWeightedReport, type BootstrapOptions, meanAbsoluteErrorStatistic, medianAbsoluteErrorStatistic } from '../train/bill-weighted';
import type { BinaryReport } from '../train/binary-report';
import { brierSkill } from '../train/metrics';
import { kindGroup } from '../serve/features';
import { Predictor } from '../serve/predictor';
import type { Sample } from '../train/samples';
import { EVALUATION_STEP_DAYS, gridDates, samplesOf } from '../train/samples';
import { type Targets, targets } from './kind-targets';
import { billCount, estimates, forecasts, type ScoredNowcast, type SkillByKind, skillByKind } from './skill-by-kind';
import { SittingCalendar } from '../serve/sitting-calendar';
import { billAsOf } from '../serve/truncate';
import { checkForLeaks, DataAsOf, type LeakCheck } from './leak-check';
import { buildSamples, lastCompleteSessions, sessionsKnownAt, type TrainingData, trainModel, type TrainingOptions } from '../train/train';
import { type KindInSession, kindsBySession } from './session-drift';
import { trustTable } from './trust-table';
import type { TrustTable } from '../serve/trust';
import type { SessionFact } from '../serve/bill-facts';
import { kindRate, tableEtaDays, tableRate } from '../serve/kind-stage-table';
import { fitKindStageTable } from '../train/kind-stage-table-fit';

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
  bills: number;
  outputs: Record<BinaryOutput, OutputEvaluation>;
  eta: EtaEvaluation;
}

export interface Evaluation {
  folds: FoldEvaluation[];
  /** every figure weighs each bill 1, however many nowcasts it has */
  pooled: { outputs: Record<BinaryOutput, OutputEvaluation>; eta: EtaEvaluation; testSamples: number; bills: number };
  /** the headline measures for all bills and by kind, with bootstrap intervals over bills */
  skill: SkillByKind;
  /** the nowcasts a customer would have seen on one day of each test session, as far into it as the data's as-of date is into its own */
  snapshotDay: SnapshotDaySkill;
  /** next_stage_30d and the ETA as they are served: a model trained up to 31 December of each test session, scoring its bills from 1 January to the session's end */
  midSession: { folds: MidSessionFold[]; pooled: MidSessionFold };
  /** every scored test nowcast recomputed from the data as known on its date, cut independently of truncateAt (leak-check.ts) */
  leakCheck: LeakCheck;
  /** each test session's government and ballot bills beside the sessions its model learned from */
  kindsBySession: KindInSession[];
  /** reliability by kind and stage, for a page's "how far to trust this number" (docs/model-card/calibration.json) */
  trust: TrustTable;
  /** the per-kind Royal Assent targets and the risks beside the rate by kind (kind-targets.ts) */
  targets: Targets;
  /** every scored test nowcast (`--save-nowcasts` writes them, for figures recomputed without training again) */
  nowcasts: ScoredNowcast[];
}

/**
 * The nowcasts of the live bills at the data's as-of date cannot be scored: their outcomes lie
 * after it. What can be scored is the same moment of the test sessions: the grid day as many days
 * into each test session as the as-of date is into the running one, and the bills live then.
 */
export interface SnapshotDaySkill {
  asOf: string;
  /** days from the running session's start to the as-of date; null when no session runs at it */
  daysIntoSession: number | null;
  /** bills live at the as-of date, whose nowcasts there wait for their outcomes */
  liveAtAsOf: number;
  /** the day scored in each test session, or null when the session was shorter */
  days: { session: string; date: string | null; bills: number }[];
  skill: SkillByKind | null;
}

/** A mid-session fold's figures, each bill weighing 1; the baselines are the kind × stage tables of the same training cutoff. */
export interface MidSessionFold {
  session?: string;
  cutoff: string;
  bills: number;
  nowcasts: number;
  nextStage: OutputEvaluation;
  eta: EtaEvaluation;
}

/** The nowcasts of a fold's test samples, scored beside the baselines. */
function scoreNowcasts(predictor: Predictor, baselines: ReturnType<typeof fitBaselines>, test: readonly Sample[], sessionId: number, only?: readonly BinaryOutput[]): ScoredNowcast[] {
  return test.map((s) => {
    const { probabilities, etaDays } = predictor.fromFeatures(s.features, s.kind);
    const outputs: ScoredNowcast['outputs'] = {};
    for (const o of only ?? BINARY_OUTPUTS) {
      const y = s.labels[o];
      if (y !== null) outputs[o] = { y, model: probabilities[o], byKind: baselines.byKind(s, o), byKindAndStage: baselines.byKindAndStage(s, o) };
    }
    const eta = s.labels.timeline_eta === null ? null : { actual: s.labels.timeline_eta, model: etaDays, baseline: baselines.eta(s) };
    return { billId: s.billId, kind: kindGroup(s.kind), foldSessionId: sessionId, date: s.date, progress: s.progress, outputs, eta };
  });
}

function midSessionFigures(nowcasts: readonly ScoredNowcast[]): Omit<MidSessionFold, 'session' | 'cutoff'> {
  const { outputs, eta } = summarise(nowcasts, ['next_stage_30d']);
  return { bills: billCount(nowcasts), nowcasts: nowcasts.length, nextStage: outputs.next_stage_30d, eta };
}

/**
 * The served model retrains as a session runs, so next_stage_30d and the ETA are served by a
 * model that has seen the session's own first months. This fold does the same: it trains on the
 * facts up to the 31 December inside the test session (none for a session without one) and scores
 * the session's bills on the evaluation grid from 1 January to the session's end.
 */
function scoreMidSession(
  data: TrainingData,
  session: SessionFact,
  name: string,
  options: { asOf: string; knownSessions: SessionFact[]; training?: Omit<TrainingOptions, 'cutoff'>; progress: (message: string) => void },
): { fold: MidSessionFold; nowcasts: ScoredNowcast[] } | null {
  const from = `${Number(session.startDate!.slice(0, 4)) + 1}-01-01`;
  if (from > session.endDate!) return null;
  const cutoff = addDays(from, -1);
  options.progress(`session ${session.id}: mid-session fold, training next_stage_30d and the ETA on facts up to ${cutoff}`);
  const artifact = trainModel(data, { ...options.training, cutoff, outputs: ['next_stage_30d', 'timeline_eta'] });
  const calendar = new SittingCalendar(artifact.sittingDates);
  const baselines = fitBaselines(buildSamples(data, cutoff, calendar, EVALUATION_STEP_DAYS));
  const test = data.bills
    .filter((b) => b.facts.introducedSessionId === session.id)
    .flatMap((bill) => samplesOf(bill, { from, until: session.endDate!, knownUntil: options.asOf, sessions: options.knownSessions, calendar, stepDays: EVALUATION_STEP_DAYS }));
  const nowcasts = scoreNowcasts(new Predictor(artifact), baselines, test, session.id, ['next_stage_30d']);
  return { fold: { session: name, cutoff, ...midSessionFigures(nowcasts) }, nowcasts };
}

/** The baselines of a fold: the kind × stage table of its training samples, read as (a) by kind, (b) by kind × stage, and the ETA's. */
function fitBaselines(training: Sample[]) {
  const table = fitKindStageTable(training);
  return {
    byKind: (s: Sample, o: BinaryOutput) => kindRate(table, o, s),
    byKindAndStage: (s: Sample, o: BinaryOutput) => tableRate(table, o, s),
    eta: (s: Sample) => tableEtaDays(table, s),
  };
}

/** The point figures of every output, each bill weighing 1. */
export function summarise(nowcasts: readonly ScoredNowcast[], only: readonly BinaryOutput[] = BINARY_OUTPUTS): { outputs: Record<BinaryOutput, OutputEvaluation>; eta: EtaEvaluation } {
  const outputs = {} as Record<BinaryOutput, OutputEvaluation>;
  for (const o of only) {
    const report = (by: 'model' | 'byKind' | 'byKindAndStage') => billWeightedReport(forecasts(nowcasts, o, by));
    const [model, byKind, byKindAndStage] = [report('model'), report('byKind'), report('byKindAndStage')];
    outputs[o] = { model, byKind, byKindAndStage, skillVsKind: brierSkill(model.brier, byKind.brier), skillVsKindAndStage: brierSkill(model.brier, byKindAndStage.brier) };
  }
  const withEta = nowcasts.filter((n) => n.eta !== null);
  const bills = new BillSet(withEta.map((n) => n.billId));
  const errors = (by: 'model' | 'baseline') => {
    const byBill = estimates(withEta, by);
    return { median: medianAbsoluteErrorStatistic(bills, byBill)(bills.ones()), mean: meanAbsoluteErrorStatistic(bills, byBill)(bills.ones()) };
  };
  return { outputs, eta: { n: withEta.length, model: errors('model'), baseline: errors('baseline') } };
}

/**
 * Rolling origin by session: for each test session, train on the facts dated before it began
 * and score nowcasts of its bills at dates during the session, with labels as known at `asOf`.
 * Baselines are fitted on the same training samples as the model. `skipLatestSessions` moves the
 * test sessions back, to the folds that choose the design (the card reports on the latest).
 */
export function evaluate(
  data: TrainingData,
  options: { asOf: string; sessions?: number; skipLatestSessions?: number; sessionNames?: Record<number, string>; training?: Omit<TrainingOptions, 'cutoff'>; bootstrap?: BootstrapOptions; onProgress?: (message: string) => void },
): Evaluation {
  const progress = options.onProgress ?? (() => {});
  const folds: FoldEvaluation[] = [];
  const all: ScoredNowcast[] = [];
  const knownSessions = sessionsKnownAt(data.sessions, options.asOf);
  const running = knownSessions.find((s) => s.startDate && !s.endDate);
  const daysIntoSession = running ? daysBetween(running.startDate!, options.asOf) : null;
  const snapshotDays: SnapshotDaySkill['days'] = [];
  const leakCheck = { nowcasts: 0, differing: 0 };
  const dataAsOf = new DataAsOf(data.bills.map((b) => b.facts));
  const count = options.sessions ?? 3;
  const skip = options.skipLatestSessions ?? 0;
  const midSession: { fold: MidSessionFold; nowcasts: ScoredNowcast[] }[] = [];
  for (const session of lastCompleteSessions(knownSessions, options.asOf, count + skip).slice(0, count)) {
    const cutoff = addDays(session.startDate!, -1);
    const sessionName = options.sessionNames?.[session.id] ?? String(session.id);
    progress(`session ${session.id}: training on facts up to ${cutoff}`);
    const artifact = trainModel(data, { ...options.training, cutoff, onProgress: (m) => progress(`  ${m}`) });
    const predictor = new Predictor(artifact);
    const calendar = new SittingCalendar(artifact.sittingDates);
    const baselines = fitBaselines(buildSamples(data, cutoff, calendar, EVALUATION_STEP_DAYS));
    const testBills = data.bills.filter((b) => b.facts.introducedSessionId === session.id);
    const test = testBills.flatMap((bill) =>
      samplesOf(bill, { from: session.startDate!, until: session.endDate!, knownUntil: options.asOf, sessions: knownSessions, calendar, stepDays: EVALUATION_STEP_DAYS }),
    );
    const leaks = checkForLeaks(predictor, dataAsOf, test, data.sessions);
    leakCheck.nowcasts += leaks.nowcasts;
    leakCheck.differing += leaks.differing;
    const fold = scoreNowcasts(predictor, baselines, test, session.id);
    all.push(...fold);
    const snapshotDate = daysIntoSession === null ? null : gridDayOnOrBefore(addDays(session.startDate!, daysIntoSession));
    const onSnapshotDay = snapshotDate !== null && snapshotDate <= session.endDate! ? snapshotDate : null;
    snapshotDays.push({ session: sessionName, date: onSnapshotDay, bills: billCount(fold.filter((n) => n.date === onSnapshotDay)) });
    folds.push({
      session: { id: session.id, name: sessionName, startDate: session.startDate!, endDate: session.endDate! },
      cutoff,
      trainingSamples: artifact.sampleCounts.all,
      testSamples: test.length,
      bills: billCount(fold),
      ...summarise(fold),
    });
    progress(`session ${session.id}: ${test.length} test nowcasts scored`);
    const midSessionFold = scoreMidSession(data, session, sessionName, { asOf: options.asOf, knownSessions, training: options.training, progress });
    if (midSessionFold) midSession.push(midSessionFold);
  }
  progress('bootstrap intervals over bills');
  const snapshotDates = new Set(snapshotDays.flatMap((d) => (d.date ? [d.date] : [])));
  const onSnapshotDays = all.filter((n) => snapshotDates.has(n.date));
  return {
    folds,
    pooled: { ...summarise(all), testSamples: all.length, bills: billCount(all) },
    skill: skillByKind(all, options.bootstrap),
    snapshotDay: {
      asOf: options.asOf,
      daysIntoSession,
      liveAtAsOf: data.bills.filter((b) => billAsOf(b.facts, options.asOf, knownSessions).state.status === 'live').length,
      days: snapshotDays,
      skill: onSnapshotDays.length ? skillByKind(onSnapshotDays, options.bootstrap) : null,
    },
    midSession: {
      folds: midSession.map((m) => m.fold),
      pooled: { cutoff: 'each test session’s 1 January', ...midSessionFigures(midSession.flatMap((m) => m.nowcasts)) },
    },
    leakCheck,
    kindsBySession: kindsBySession(data, folds, all),
    trust: trustTable(all, { testSessions: folds.map((f) => f.session.name), outcomesAsOf: options.asOf }),
    targets: targets(all, options.bootstrap),
    nowcasts: all,
  };
}

/** The evaluation grid's day on or before `date`. */
function gridDayOnOrBefore(date: string): string {
  return gridDates(addDays(date, -(EVALUATION_STEP_DAYS - 1)), date, EVALUATION_STEP_DAYS)[0];
}
