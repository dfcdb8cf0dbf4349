import { BINARY_OUTPUTS, type BinaryOutput } from '../serve/labels';
import type { KindStageTable, TableColumn } from '../serve/kind-stage-table';
import { pushTo } from '../../common/multimap';
import type { Sample } from './samples';

/** A kind × stage cell with fewer samples falls back to its kind's figure. */
export const MIN_CELL = 20;

// the upper of the two middle values of an even count, as the evaluation has always read it
const middleOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The kind × stage table of the samples (only those whose answer is known count for an output). */
export function fitKindStageTable(samples: readonly Sample[]): KindStageTable {
  const rateColumn = (output: BinaryOutput): TableColumn => {
    const stage = new Map<string, { n: number; positives: number }>();
    const kind = new Map<string, { n: number; positives: number }>();
    let n = 0;
    let positives = 0;
    for (const s of samples) {
      const y = s.labels[output];
      if (y === null) continue;
      for (const [cells, key] of [[stage, `${s.kind}/${s.progress}`], [kind, s.kind]] as const) {
        const cell = cells.get(key) ?? cells.set(key, { n: 0, positives: 0 }).get(key)!;
        cell.n++;
        cell.positives += y;
      }
      n++;
      positives += y;
    }
    const rate = (c: { n: number; positives: number }) => c.positives / c.n;
    return {
      byStage: Object.fromEntries([...stage].filter(([, c]) => c.n >= MIN_CELL).map(([key, c]) => [key, rate(c)])),
      byKind: Object.fromEntries([...kind].map(([key, c]) => [key, rate(c)])),
      overall: n ? positives / n : 0.5,
    };
  };
  const waits = new Map<string, number[]>();
  const all: number[] = [];
  for (const s of samples) {
    if (s.labels.timeline_eta === null) continue;
    pushTo(waits, `stage:${s.kind}/${s.lastStage}`, s.labels.timeline_eta);
    pushTo(waits, `kind:${s.kind}`, s.labels.timeline_eta);
    all.push(s.labels.timeline_eta);
  }
  const etaDays: TableColumn = { byStage: {}, byKind: {}, overall: all.length ? middleOf(all) : 30 };
  for (const [key, days] of waits) {
    if (key.startsWith('stage:') && days.length >= MIN_CELL) etaDays.byStage[key.slice('stage:'.length)] = middleOf(days);
    if (key.startsWith('kind:')) etaDays.byKind[key.slice('kind:'.length)] = middleOf(days);
  }
  return { rates: Object.fromEntries(BINARY_OUTPUTS.map((o) => [o, rateColumn(o)])) as KindStageTable['rates'], etaDays };
}
