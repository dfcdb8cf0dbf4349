/**
 * A watchlist's predictions as CSV on GraphQL (issue 33): `watchlistPredictionsCsv(id,
 * referenceDate)`, the same file as REST's `GET /dashboard/watchlists/{id}/predictions.csv`
 * (both written by src/services/csv-export.ts). It exists for the dashboard: a dashboard session
 * never opens the REST door (the gateway decides that), so the dashboard's "Download CSV" runs
 * this query, one of its own documents, and saves the text as a file. Each bill's prediction is
 * charged as the caller's door charges predictions (once a bill a day on the website, one each
 * with a key), and given back if the file does not reach the response.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, Field, Info, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../request/context';
import { toCsv, WATCHLIST_CSV_COLUMNS, watchlistCsvFilename, watchlistCsvRow } from '../services/csv-export';
import { Access } from './access';
import { chargedPrediction } from './charged-prediction';
import { DateScalar } from './date.scalar';

@ObjectType('CsvFile', { description: 'A CSV export: RFC 4180 text (CRLF, a header row, formula-like text cells neutralised) and the name to save it under' })
export class CsvFileType {
  @Field(() => String)
  filename: string;

  @Field(() => String, { description: 'the file’s text, UTF-8 once saved' })
  csv: string;

  @Field(() => Int, { description: 'rows after the header' })
  rows: number;
}

@Resolver(() => CsvFileType)
export class WatchlistExportResolver {
  @Query(() => CsvFileType, {
    description: 'One of the caller’s watchlists as CSV, one row (and one prediction) per bill, as REST’s predictions.csv; another account’s answers NOT_FOUND',
  })
  @Access('pilot', { requires: ['data', 'model'] })
  async watchlistPredictionsCsv(
    @Arg('id', () => Int) id: number,
    @Arg('referenceDate', () => DateScalar, { nullable: true }) referenceDate: string | null,
    @Ctx() context: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<CsvFileType> {
    const { user, services } = context;
    const watchlist = await services.watchlists.get(user!.accountId, id);
    // checked before the watchlist's bills are predicted, so an empty one refuses a date after today too
    const date = services.predictions.referenceDate(referenceDate);
    // charged at this field's place: should it end up null, the predictions are given back
    const predictions = await Promise.all(watchlist.bills.map((b) => chargedPrediction(context, b.billId, date, info)));
    const rows = predictions.map((p) => watchlistCsvRow(p.billId, p));
    return { filename: watchlistCsvFilename(id, date), csv: toCsv(WATCHLIST_CSV_COLUMNS, rows), rows: rows.length };
  }
}
