/**
 * How far to trust a number: the evaluation's own reliability, cut by kind of bill and stage
 * reached, so a page can say of a bill's figure "government bills at this stage: of nowcasts
 * near 90%, 84% came true". `npm run evaluate` writes it beside the model card
 * (docs/model-card/calibration.json); the server reads that file, so the page and the card
 * always quote the same evaluation.
 */
import { weightedReliability } from '../train/bill-weighted';
import { type ScoredNowcast, SKILL_OUTPUTS, type SkillOutput } from './skill-by-kind';

/** One probability bin of one group of test nowcasts, each bill weighing 1. */
export interface TrustCell {
  lower: number;
  upper: number;
  /** the bin's share of the group's bills: a bill with nowcasts in two bins counts partly in each */
  bills: number;
  nowcasts: number;
  meanPredicted: number | null;
  observedRate: number | null;
}

export interface TrustGroup {
  kind: string;
  /** the furthest main stage reached (1–5 first house, 6–10 second, 11 ping-pong); null: every stage */
  progress: number | null;
  bins: TrustCell[];
}

export interface TrustTable {
  /** the evaluation's test sessions, by name */
  testSessions: string[];
  /** the outcomes are as known on this date */
  outcomesAsOf: string;
  outputs: Record<SkillOutput, TrustGroup[]>;
}

/** Fewer bills than this in a bin, and its observed rate says too little to quote. */
export const MIN_TRUST_BILLS = 10;

const BINS = 10;

export function trustTable(nowcasts: readonly ScoredNowcast[], meta: Pick<TrustTable, 'testSessions' | 'outcomesAsOf'>): TrustTable {
  const outputs = {} as Record<SkillOutput, TrustGroup[]>;
  const kinds = [...new Set(nowcasts.map((n) => n.kind))].sort();
  for (const output of SKILL_OUTPUTS) {
    const groups: TrustGroup[] = [];
    const add = (kind: string, progress: number | null, members: readonly ScoredNowcast[]) => {
      const forecasts = members.flatMap((n) => (n.outputs[output] ? [{ billId: n.billId, p: n.outputs[output].model, y: n.outputs[output].y }] : []));
      if (!forecasts.length) return;
      const round = (x: number | null, digits: number) => (x === null ? null : Number(x.toFixed(digits)));
      const bins = weightedReliability(forecasts, BINS)
        .filter((b) => b.count > 0)
        .map((b) => ({ lower: b.lower, upper: Number(b.upper.toFixed(1)), bills: round(b.bills, 2)!, nowcasts: b.count, meanPredicted: round(b.meanPredicted, 3), observedRate: round(b.observedRate, 3) }));
      groups.push({ kind, progress, bins });
    };
    for (const kind of kinds) {
      const ofKind = nowcasts.filter((n) => n.kind === kind);
      add(kind, null, ofKind);
      for (const progress of [...new Set(ofKind.map((n) => n.progress))].sort((a, b) => a - b)) add(kind, progress, ofKind.filter((n) => n.progress === progress));
    }
    outputs[output] = groups;
  }
  return { ...meta, outputs };
}

export interface Trust {
  /** whether the figure is from bills of the same kind at the same stage, or (too few of those) of the same kind at any stage */
  scope: 'kind_and_stage' | 'kind';
  cell: TrustCell;
  /** false when even the kind's bin has fewer than MIN_TRUST_BILLS bills: its rate is not worth quoting */
  enough: boolean;
}

const binOf = (p: number) => Math.min(BINS - 1, Math.floor(p * BINS)) / BINS;

/** The bin a probability falls in, among bills like this one: its stage's where there are enough of them, else its kind's. */
export function trustFor(table: TrustTable, output: SkillOutput, kind: string, progress: number, p: number): Trust | null {
  const lower = binOf(p);
  const cellOf = (group: TrustGroup | undefined) => group?.bins.find((b) => Math.abs(b.lower - lower) < 1e-9);
  const atStage = cellOf(table.outputs[output].find((g) => g.kind === kind && g.progress === progress));
  if (atStage && atStage.bills >= MIN_TRUST_BILLS) return { scope: 'kind_and_stage', cell: atStage, enough: true };
  const ofKind = cellOf(table.outputs[output].find((g) => g.kind === kind && g.progress === null));
  if (ofKind) return { scope: 'kind', cell: ofKind, enough: ofKind.bills >= MIN_TRUST_BILLS };
  return atStage ? { scope: 'kind_and_stage', cell: atStage, enough: false } : null;
}
