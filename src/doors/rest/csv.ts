/**
 * CSV exports (issue 33) on REST: the answer that carries a file (`text/csv; charset=utf-8`, a
 * download filename). The file itself is written by src/services/csv-export.ts, which the
 * dashboard's GraphQL export uses too.
 */
import { type CsvCell, toCsv } from '../../services/csv-export';
import { TextBody } from './text-body';

export type { CsvCell };

/** A CSV answer: the text, its media type, and the filename a browser saves it under. */
export function csvAnswer(filename: string, columns: readonly string[], rows: readonly (readonly CsvCell[])[]): TextBody {
  return csvFile(filename, toCsv(columns, rows));
}

/** A CSV answer of a file already written (src/services/csv-export.ts's toCsv). */
export function csvFile(filename: string, text: string): TextBody {
  return new TextBody(text, 'text/csv; charset=utf-8', { 'Content-Disposition': `attachment; filename="${filename}"` });
}
