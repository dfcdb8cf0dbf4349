/**
 * CSV exports (issue 33), below every door: RFC 4180 text written by csv-stringify, and the
 * watchlist's predictions as rows. REST's `.csv` paths (src/doors/rest/exports.router.ts) and the
 * dashboard's GraphQL `watchlistPredictionsCsv` both build their files here, so the two doors
 * cannot write different files for one watchlist. Server side only: csv-stringify needs Node's
 * Buffer, which the dashboard's browser bundle does not have.
 */
import { stringify } from 'csv-stringify/sync';

/** A cell: text, a number, a boolean, or nothing (an empty cell). */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * One header row, then a row per record, CRLF after each (RFC 4180).
 *
 * Against CSV injection (a spreadsheet runs a cell that begins with `=`, `+`, `-`, `@`, a tab or a
 * carriage return as a formula), csv-stringify's `escape_formulas` puts a `'` before such a cell
 * when it is text, and leaves numbers alone: the cell's type is known where the record is made,
 * so a negative number (`-0.5`) stays the number a spreadsheet reads, while a title such as
 * `=HYPERLINK(…)` or `-5 things` arrives as text. Numbers are written as JavaScript writes them,
 * the same digits as the JSON answers (shortest round trip), never rounded here.
 */
export function toCsv(columns: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return stringify([columns as string[], ...(rows as CsvCell[][])], {
    record_delimiter: '\r\n',
    // csv-stringify quotes a field holding the record delimiter (CRLF) but not a lone LF or CR, which parsers take as a row's end too
    quoted_match: /[\r\n]/,
    escape_formulas: true,
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
}

export const WATCHLIST_CSV_COLUMNS = [
  'bill_id',
  'title',
  'stage',
  'royal_assent',
  'next_stage_30d',
  'timeline_eta_days',
  'stall_risk',
  'amendment_risk',
  'close_vote',
  'withdrawal_risk',
  'reference_date',
  'model_version',
] as const;

/** What a watchlist row reads of a prediction: GraphQL's Prediction, as REST's document selects it or as a resolver holds it. */
export interface WatchlistCsvPrediction {
  billTitle: string;
  /** the stage's GraphQL name (REST's document) or its word (a resolver): lower-cased either way */
  lastStage: { stage: string } | null;
  royalAssent: number;
  nextStage30d: number;
  timelineEtaDays: number | null;
  stallRisk: number;
  amendmentRisk: number;
  closeVote: number;
  withdrawalRisk: number;
  referenceDate: string;
  model: { version: number };
}

/** One bill of a watchlist as a row of WATCHLIST_CSV_COLUMNS, the numbers exactly as the JSON answer gives them. */
export function watchlistCsvRow(billId: number, p: WatchlistCsvPrediction): CsvCell[] {
  return [
    billId,
    p.billTitle,
    p.lastStage ? p.lastStage.stage.toLowerCase() : 'not_started',
    p.royalAssent,
    p.nextStage30d,
    p.timelineEtaDays,
    p.stallRisk,
    p.amendmentRisk,
    p.closeVote,
    p.withdrawalRisk,
    p.referenceDate,
    p.model.version,
  ];
}

/** The name a browser saves a watchlist's export under. */
export const watchlistCsvFilename = (watchlistId: number, referenceDate: string) => `watchlist-${watchlistId}-predictions-${referenceDate}.csv`;
