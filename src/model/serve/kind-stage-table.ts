import { BINARY_OUTPUTS, type BinaryOutput } from './labels';
import type { BillKind } from './bill-facts';

/** Rates (or median days) of one output: by kind × stage cell, by kind, over all. */
export interface TableColumn {
  /** by `kind/stage` cell, only cells with enough samples to stand on their own */
  byStage: Record<string, number>;
  byKind: Record<string, number>;
  overall: number;
}

/**
 * The baseline a forecast is judged against: for each probability, the rate of the output among
 * the bills of the same kind and furthest passage position (falling back to the kind's rate where
 * a cell is thin), and for the ETA the median days to the next main stage by kind and last main
 * stage; learned from the training samples whose answers were known by the model's cutoff, so a
 * model's table knows no more than the model does.
 */
export interface KindStageTable {
  rates: Record<BinaryOutput, TableColumn>;
  etaDays: TableColumn;
}

/** Where a bill stands, as far as the table reads it. */
export interface TableCell {
  kind: BillKind;
  /** furthest passage position (bill-state's progress) */
  progress: number;
  /** the last main stage that sat, or null before any */
  lastStage: string | null;
}

/** The table's rate of an output for a bill: its cell's, else its kind's, else the overall rate. */
export function tableRate(table: KindStageTable, output: BinaryOutput, cell: TableCell): number {
  const column = table.rates[output];
  return column.byStage[`${cell.kind}/${cell.progress}`] ?? column.byKind[cell.kind] ?? column.overall;
}

/** The table's rate of an output by the bill's kind alone, else the overall rate. */
export function kindRate(table: KindStageTable, output: BinaryOutput, cell: Pick<TableCell, 'kind'>): number {
  const column = table.rates[output];
  return column.byKind[cell.kind] ?? column.overall;
}

/** The table's median days to the next main stage for a bill: by kind and last stage, else kind, else overall. */
export function tableEtaDays(table: KindStageTable, cell: TableCell): number {
  return table.etaDays.byStage[`${cell.kind}/${cell.lastStage}`] ?? table.etaDays.byKind[cell.kind] ?? table.etaDays.overall;
}

/** Every output's table value for a bill, in the words of a nowcast's outputs. */
export type TableValues = Record<BinaryOutput, number> & { timeline_eta: number };

export function tableValues(table: KindStageTable, cell: TableCell): TableValues {
  const values = {} as TableValues;
  for (const output of BINARY_OUTPUTS) values[output] = tableRate(table, output, cell);
  values.timeline_eta = tableEtaDays(table, cell);
  return values;
}
