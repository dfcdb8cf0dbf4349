/**
 * How far to trust a number, as a page reads it: the evaluation's own reliability, cut by kind of
 * bill and stage reached, looked up for one figure ("government bills at this stage: of nowcasts
 * near 90%, 84% came true"). `npm run evaluate` builds the table (evaluate/trust-table.ts) and
 * writes it beside the model card; the server reads that file, so the page and the card always
 * quote the same evaluation.
 */

/** The outputs whose skill is reported by kind, with intervals, and whose trust a page quotes. */
export const SKILL_OUTPUTS = ['royal_assent', 'next_stage_30d'] as const;
export type SkillOutput = (typeof SKILL_OUTPUTS)[number];

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

/** The probability bins the table is cut into: tenths. */
export const TRUST_BINS = 10;

export interface Trust {
  /** whether the figure is from bills of the same kind at the same stage, or (too few of those) of the same kind at any stage */
  scope: 'kind_and_stage' | 'kind';
  cell: TrustCell;
  /** false when even the kind's bin has fewer than MIN_TRUST_BILLS bills: its rate is not worth quoting */
  enough: boolean;
}

const binOf = (p: number) => Math.min(TRUST_BINS - 1, Math.floor(p * TRUST_BINS)) / TRUST_BINS;

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
