/**
 * Skill by kind: the headline measures of the evaluation's nowcasts for all bills and for each
 * kind of bill, each bill weighing 1, with bootstrap intervals over bills, beside the kind ×
 * stage table (baseline b) on the same bills, so a reader sees for each kind whether the model
 * beats the table and by how much that could be chance.
 */
import {
  aucStatistic,
  BillSet,
  bootstrap,
  type BillEstimate,
  type BillForecast,
  type BillStatistic,
  type BootstrapOptions,
  brierStatistic,
  eceStatistic,
  type Estimate,
  meanAbsoluteErrorStatistic,
  medianAbsoluteErrorStatistic,
  memoised,
  ratioStatistic,
  weightedReliability,
  type WeightedReliabilityBin,
} from '../train/bill-weighted';
import type { BinaryOutput } from '../serve/labels';
import { SKILL_OUTPUTS, type SkillOutput } from '../serve/trust';

/** One test nowcast of the evaluation, with what the model and the baselines said and what happened. */
export interface ScoredNowcast {
  billId: number;
  /** the kind group the model tells apart (kindGroup) */
  kind: string;
  /** the test session whose fold scored it */
  foldSessionId: number;
  date: string;
  /** the furthest main stage the bill had reached by the date (1–5 first house, 6–10 second, 11 ping-pong) */
  progress: number;
  /** each output whose answer is known: the outcome, the model's probability and the baselines' */
  outputs: Partial<Record<BinaryOutput, { y: 0 | 1; model: number; byKind: number; byKindAndStage: number }>>;
  /** days to the next main stage, when the bill moved again; the model's and the baseline's estimates */
  eta: { actual: number; model: number; baseline: number } | null;
}

/** The kinds of bill people watch most: each has its own Royal Assent targets, reliability diagram and session-by-session record. */
export const WATCHED_KINDS = ['government', 'pmb_ballot'] as const;

export interface BinarySkill {
  nowcasts: number;
  bills: number;
  /** bills whose event happened (for royal_assent: Acts) */
  positiveBills: number;
  model: { brier: Estimate; auc: Estimate; ece: Estimate };
  /** baseline (b): the rate by kind and furthest stage, fitted on the same training data */
  table: { brier: Estimate; ece: Estimate };
  /** model Brier / table Brier on the same bills: below 1, the model beats the table */
  brierRatio: Estimate;
  /** each bill weighing 1: the model's and the table's */
  reliability: WeightedReliabilityBin[];
  tableReliability: WeightedReliabilityBin[];
}

export interface EtaSkill {
  nowcasts: number;
  bills: number;
  model: { median: Estimate; mean: Estimate };
  /** median days to the next stage for the kind and last stage */
  baseline: { median: Estimate; mean: Estimate };
  /** model median abs. error / baseline's on the same bills */
  medianRatio: Estimate;
}

export interface GroupSkill {
  bills: number;
  nowcasts: number;
  outputs: Record<SkillOutput, BinarySkill>;
  eta: EtaSkill;
}

export interface SkillByKind {
  pooled: GroupSkill;
  byKind: Record<string, GroupSkill>;
}

/** One output's forecasts by the model or a baseline, for the bill-weighted measures. */
export const forecasts = (nowcasts: readonly ScoredNowcast[], output: BinaryOutput, by: 'model' | 'byKind' | 'byKindAndStage'): BillForecast[] =>
  nowcasts.flatMap((n) => {
    const o = n.outputs[output];
    return o ? [{ billId: n.billId, p: o[by], y: o.y }] : [];
  });

/** The ETA's estimates by the model or the baseline, beside the days it took. */
export const estimates = (nowcasts: readonly ScoredNowcast[], by: 'model' | 'baseline'): BillEstimate[] =>
  nowcasts.flatMap((n) => (n.eta ? [{ billId: n.billId, predicted: n.eta[by], actual: n.eta.actual }] : []));

export const billCount = (samples: readonly { billId: number }[]) => new Set(samples.map((s) => s.billId)).size;

/** The measures of one group of nowcasts (all bills, or one kind), with intervals from one bootstrap over its bills. */
export function groupSkill(nowcasts: readonly ScoredNowcast[], options: BootstrapOptions = {}): GroupSkill {
  const bills = new BillSet(nowcasts.map((n) => n.billId));
  const statistics: Record<string, BillStatistic> = {};
  const byOutput = new Map(SKILL_OUTPUTS.map((o) => [o, { model: forecasts(nowcasts, o, 'model'), table: forecasts(nowcasts, o, 'byKindAndStage') }]));
  for (const o of SKILL_OUTPUTS) {
    const { model, table } = byOutput.get(o)!;
    const modelBrier = memoised(brierStatistic(bills, model));
    const tableBrier = memoised(brierStatistic(bills, table));
    Object.assign(statistics, {
      [`${o}.model.brier`]: modelBrier,
      [`${o}.model.auc`]: aucStatistic(bills, model),
      [`${o}.model.ece`]: eceStatistic(bills, model),
      [`${o}.table.brier`]: tableBrier,
      [`${o}.table.ece`]: eceStatistic(bills, table),
      [`${o}.ratio`]: ratioStatistic(modelBrier, tableBrier),
    });
  }
  const etaModel = estimates(nowcasts, 'model');
  const etaBaseline = estimates(nowcasts, 'baseline');
  const modelMedian = memoised(medianAbsoluteErrorStatistic(bills, etaModel));
  const baselineMedian = memoised(medianAbsoluteErrorStatistic(bills, etaBaseline));
  Object.assign(statistics, {
    'eta.model.median': modelMedian,
    'eta.model.mean': meanAbsoluteErrorStatistic(bills, etaModel),
    'eta.baseline.median': baselineMedian,
    'eta.baseline.mean': meanAbsoluteErrorStatistic(bills, etaBaseline),
    'eta.ratio': ratioStatistic(modelMedian, baselineMedian),
  });
  const e = bootstrap(bills, statistics, options);

  const outputs = Object.fromEntries(
    SKILL_OUTPUTS.map((o) => {
      const { model, table } = byOutput.get(o)!;
      const skill: BinarySkill = {
        nowcasts: model.length,
        bills: billCount(model),
        positiveBills: billCount(model.filter((s) => s.y === 1)),
        model: { brier: e[`${o}.model.brier`], auc: e[`${o}.model.auc`], ece: e[`${o}.model.ece`] },
        table: { brier: e[`${o}.table.brier`], ece: e[`${o}.table.ece`] },
        brierRatio: e[`${o}.ratio`],
        reliability: weightedReliability(model),
        tableReliability: weightedReliability(table),
      };
      return [o, skill];
    }),
  ) as Record<SkillOutput, BinarySkill>;
  return {
    bills: bills.size,
    nowcasts: nowcasts.length,
    outputs,
    eta: {
      nowcasts: etaModel.length,
      bills: billCount(etaModel),
      model: { median: e['eta.model.median'], mean: e['eta.model.mean'] },
      baseline: { median: e['eta.baseline.median'], mean: e['eta.baseline.mean'] },
      medianRatio: e['eta.ratio'],
    },
  };
}

/** All bills together, and each kind apart (kinds in alphabetical order). */
export function skillByKind(nowcasts: readonly ScoredNowcast[], options: BootstrapOptions = {}): SkillByKind {
  const kinds = [...new Set(nowcasts.map((n) => n.kind))].sort();
  return {
    pooled: groupSkill(nowcasts, options),
    byKind: Object.fromEntries(kinds.map((k) => [k, groupSkill(nowcasts.filter((n) => n.kind === k), options)])),
  };
}
