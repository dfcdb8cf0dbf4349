/**
 * The trust table: the evaluation's test nowcasts binned by probability for each kind of bill and
 * stage reached, each bill weighing 1. `npm run evaluate` writes it beside the model card
 * (docs/model-card/calibration.json); serve/trust.ts looks a figure up in it.
 */
import { weightedReliability } from '../train/bill-weighted';
import { type ScoredNowcast } from './skill-by-kind';
import { SKILL_OUTPUTS, type SkillOutput, TRUST_BINS, type TrustGroup, type TrustTable } from '../serve/trust';

export function trustTable(nowcasts: readonly ScoredNowcast[], meta: Pick<TrustTable, 'testSessions' | 'outcomesAsOf'>): TrustTable {
  const outputs = {} as Record<SkillOutput, TrustGroup[]>;
  const kinds = [...new Set(nowcasts.map((n) => n.kind))].sort();
  for (const output of SKILL_OUTPUTS) {
    const groups: TrustGroup[] = [];
    const add = (kind: string, progress: number | null, members: readonly ScoredNowcast[]) => {
      const forecasts = members.flatMap((n) => (n.outputs[output] ? [{ billId: n.billId, p: n.outputs[output].model, y: n.outputs[output].y }] : []));
      if (!forecasts.length) return;
      const round = (x: number | null, digits: number) => (x === null ? null : Number(x.toFixed(digits)));
      const bins = weightedReliability(forecasts, TRUST_BINS)
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
