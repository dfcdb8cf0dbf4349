/**
 * CSV exports (issue 33): RFC 4180 text written by csv-stringify, and the answer that carries it
 * (`text/csv; charset=utf-8`, a download filename).
 */
import { stringify } from 'csv-stringify/sync';
import { TextBody } from './text-body';

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

/** A CSV answer: the text, its media type, and the filename a browser saves it under. */
export function csvAnswer(filename: string, columns: readonly string[], rows: readonly (readonly CsvCell[])[]): TextBody {
  return new TextBody(toCsv(columns, rows), 'text/csv; charset=utf-8', { 'Content-Disposition': `attachment; filename="${filename}"` });
}
