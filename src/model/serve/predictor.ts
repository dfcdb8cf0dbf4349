/** The predictor: a stored model version run on a bill's facts as of a date, giving its nowcast, risk indicators and explanations. */
import { type TableValues, tableValues } from './kind-stage-table';
import { NeuralNetwork } from 'brain.js';
import type { BillFacts, BillKind, SessionFact } from './bill-facts';
import type { BillState, BillStatus } from './bill-state';
import { calibrateForKind } from './calibration';
import { daysBetween } from '../../common/dates';
import { FEATURE_SCHEMA_VERSION, featureVector, inputsFor, kindGroup } from './features';
import { explain, type Explanations } from './explain';
import { BINARY_OUTPUTS, type BinaryOutput, divisionMargin } from './labels';
import type { ModelArtifact } from './model-artifact';
import { SittingCalendar } from './sitting-calendar';
import { billAsOf } from './truncate';
import { referenceBill } from './typical-bill';
import { ensembleRun, ensembleRunAll } from './ensemble';
import { nextStageOf } from './next-stage';
import type { MainStage, PredictionValues, RiskLevel } from '../../vocabulary';

export type { RiskLevel };

/** The specification's rule: low below 0.3, medium from 0.3 to 0.7, high above 0.7. */
export const riskLevel = (p: number): RiskLevel => (p < 0.3 ? 'low' : p > 0.7 ? 'high' : 'medium');

export interface Nowcast {
  billId: number;
  referenceDate: string;
  /** what the facts up to the date say: only a live bill gets network predictions */
  status: BillStatus;
  probabilities: Record<BinaryOutput, number>;
  /** days to the next main stage if the bill moves (the median of its distribution given that it moves); null when there will be none (enacted, withdrawn, fell) */
  timelineEtaDays: number | null;
  /**
   * The probability the bill has a next main stage at all, of the distribution next_stage_30d and
   * the ETA are read from (next-stage.ts): the ETA is within 30 days exactly when next_stage_30d is
   * at least half of it. 0 for a settled bill. Not an output of its own: the explanations' words.
   */
  nextStageAtAll: number;
  controversyScore: number;
  momentumScore: number;
  /** the last main stage that sat on or before the date */
  lastStage: { stage: MainStage; house: string; date: string } | null;
  /** what the model's kind × stage table gives a bill of its kind and stage (kind-stage-table.ts): the baseline its forecast is judged against; null for a settled bill */
  table: TableValues | null;
}

/** A nowcast's outputs by their words (src/vocabulary.ts PREDICTION_OUTPUTS): what every door and event spells its own way. */
export const outputsOf = (n: Pick<Nowcast, 'probabilities' | 'timelineEtaDays'>): PredictionValues => ({ ...n.probabilities, timeline_eta: n.timelineEtaDays });

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Settled bills need no network: their future is known from their status. */
const SETTLED: Record<Exclude<BillStatus, 'live'>, Record<BinaryOutput, number>> = {
  enacted: { royal_assent: 1, next_stage_30d: 0, stall_risk: 0, withdrawal_risk: 0, amendment_risk: 0, close_vote: 0 },
  withdrawn: { royal_assent: 0, next_stage_30d: 0, stall_risk: 1, withdrawal_risk: 1, amendment_risk: 0, close_vote: 0 },
  fell: { royal_assent: 0, next_stage_30d: 0, stall_risk: 1, withdrawal_risk: 1, amendment_risk: 0, close_vote: 0 },
};

/**
 * A trained model version as a pure function: (bill facts, reference date, sessions) → nowcast.
 * It reads nothing but its artifact and what it is given, and only the bill as known on the
 * reference date (billAsOf truncates it there), so later data never changes an earlier nowcast.
 */
export class Predictor {
  private readonly nets: Record<BinaryOutput, NeuralNetwork<number[], number[]>[]>;
  private readonly etaNets: NeuralNetwork<number[], number[]>[];
  private readonly calendar: SittingCalendar;

  constructor(readonly artifact: ModelArtifact) {
    if (artifact.featureSchemaVersion !== FEATURE_SCHEMA_VERSION) {
      throw new Error(`model feature schema ${artifact.featureSchemaVersion} does not match the code's ${FEATURE_SCHEMA_VERSION}`);
    }
    const load = (json: object) => new NeuralNetwork<number[], number[]>().fromJSON(json as never);
    // a part of a training (train-parts.ts, the evaluation's mid-session folds) holds some outputs' networks only: the others answer NaN
    this.nets = Object.fromEntries(BINARY_OUTPUTS.map((o) => [o, (artifact.networks[o] ?? []).map(load)])) as Predictor['nets'];
    this.etaNets = artifact.eta.map(load);
    this.calendar = new SittingCalendar(artifact.sittingDates);
  }

  /** Calibrated probabilities, and next_stage_30d and the ETA read from one distribution, for a feature vector of a live bill of a kind. */
  fromFeatures(features: number[], kind: BillKind): { probabilities: Record<BinaryOutput, number>; etaDays: number; nextStageAtAll: number } {
    const probabilities = {} as Record<BinaryOutput, number>;
    const group = kindGroup(kind);
    for (const output of BINARY_OUTPUTS) probabilities[output] = round(this.probability(output, features, group));
    const next = nextStageOf(probabilities.next_stage_30d, ensembleRunAll(this.etaNets, features));
    probabilities.next_stage_30d = next.within30;
    return { probabilities, etaDays: next.etaDays, nextStageAtAll: next.atAll };
  }

  private probability(output: BinaryOutput, features: number[], group: string): number {
    if (!this.nets[output].length) return NaN;
    return calibrateForKind(ensembleRun(this.nets[output], inputsFor(output, features)), this.artifact.calibration[output], group);
  }

  /**
   * Why the headline probabilities are what they are, against the typical bill of the kind on the
   * same date (see explain()). A settled bill's follow from its status, not from any factor: none are given.
   */
  explain(facts: BillFacts, referenceDate: string, sessions: readonly SessionFact[]): Explanations {
    const bill = billAsOf(facts, referenceDate, sessions);
    if (bill.state.status !== 'live') return { royal_assent: [], next_stage_30d: [], reference: null };
    const group = kindGroup(facts.kind);
    const reference = referenceBill(bill.facts, referenceDate, this.artifact.typicalBills[group]);
    return explain(bill, reference, sessions, (b) => featureVector(b, sessions, this.calendar), (output, features) => this.probability(output, features, group));
  }

  nowcast(facts: BillFacts, referenceDate: string, sessions: readonly SessionFact[]): Nowcast {
    const bill = billAsOf(facts, referenceDate, sessions);
    const { state } = bill;
    const last = state.lastMain;
    const indicators = {
      controversyScore: this.controversy(bill.facts, state),
      momentumScore: this.momentum(bill.facts, state),
      lastStage: last ? { stage: last.stage, house: last.house, date: last.date } : null,
    };
    if (state.status !== 'live') {
      return { billId: facts.billId, referenceDate, status: state.status, probabilities: { ...SETTLED[state.status] }, timelineEtaDays: null, nextStageAtAll: 0, ...indicators, table: null };
    }
    const { probabilities, etaDays, nextStageAtAll } = this.fromFeatures(featureVector(bill, sessions, this.calendar), facts.kind);
    const table = tableValues(this.artifact.kindStageTable, { kind: facts.kind, progress: state.progress, lastStage: last?.stage ?? null });
    return { billId: facts.billId, referenceDate, status: 'live', probabilities, timelineEtaDays: etaDays, nextStageAtAll, ...indicators, table };
  }

  /**
   * How contested the bill has been so far, in [0, 1]:
   * 0.3 × division count (log-scaled, 10 or more = 1) + 0.3 × closeness of its closest division
   * (tied = 1, a margin of half the votes or more = 0) + 0.2 × ping-pong rounds (4 or more = 1)
   * + 0.2 × committee sittings against twice the median for its kind.
   */
  private controversy(facts: BillFacts, state: BillState): number {
    const divisions = Math.min(1, Math.log1p(state.divisions.length) / Math.log1p(10));
    const closest = state.divisions.reduce((m, v) => Math.min(m, divisionMargin(v.ayes, v.noes)), 1);
    const closeness = state.divisions.length ? clamp01(1 - closest / 0.5) : 0;
    const pingPong = clamp01(((state.sittings.get('consideration_of_amendments:first') ?? 0) + (state.sittings.get('consideration_of_amendments:second') ?? 0)) / 4);
    const committee = (state.sittings.get('committee:first') ?? 0) + (state.sittings.get('committee:second') ?? 0);
    const norm = this.artifact.norms.committeeSittings[facts.kind] || 1;
    const drag = clamp01(committee / (2 * norm));
    return round(0.3 * divisions + 0.3 * closeness + 0.2 * pingPong + 0.2 * drag);
  }

  /**
   * How fast the bill is moving now, in [0, 1]; 0 once it is settled:
   * 0.5 × the kind's median gap between main stages over the days since its last main stage
   * (capped at 1) + 0.5 × main-stage sittings in the last 90 days (3 or more = 1).
   */
  private momentum(facts: BillFacts, state: BillState): number {
    if (state.status !== 'live') return 0;
    const since = state.lastMain ? daysBetween(state.lastMain.date, state.referenceDate) : state.daysSinceIntroduction;
    const norm = this.artifact.norms.mainStageGapDays[facts.kind] || 30;
    const recency = clamp01(norm / Math.max(1, since));
    const recent = state.mainEvents.filter((e) => daysBetween(e.date, state.referenceDate) < 90).length;
    return round(0.5 * recency + 0.5 * clamp01(recent / 3));
  }
}
