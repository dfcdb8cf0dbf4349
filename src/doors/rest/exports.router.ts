/**
 * CSV exports (issue 33): a watchlist's predictions, a bill's prediction history and a webhook's
 * deliveries, each a `.csv` sibling of the JSON path it exports, running a named GraphQL operation
 * as every REST route does, so it is authenticated, charged and refused as that path is.
 */
import type { RouteTable } from './route-table';
import { notFound } from '../../errors';
import type { Gateway } from '../../gateway/pipeline';
import { heldToDocument } from './documented-operations';
import { WATCHLIST_CSV_COLUMNS, watchlistCsvFilename, watchlistCsvRow } from '../../services/csv-export';
import { type CsvCell, csvAnswer } from './csv';
import { billIdParam, idParam, integerQuery, referenceDateParam } from './params';
import { type Handler, route } from './route';
import type { RunOperation } from './run-operation';

export const HISTORY_CSV_COLUMNS = ['bill_id', 'title', 'reference_date', 'status', 'royal_assent', 'next_stage_30d', 'model_version', 'out_of_sample'] as const;
export const DELIVERIES_CSV_COLUMNS = ['event_id', 'event_type', 'status', 'attempt', 'status_code', 'error', 'duration_ms', 'attempted_at', 'next_attempt_at', 'created_at'] as const;

const MAX_DELIVERIES = 100;

export function addExportRoutes(router: RouteTable, gateway: Gateway, run: RunOperation): void {
  const handle = (handler: Handler) => route(gateway, heldToDocument(handler));

  router.get(
    '/dashboard/watchlists/:id/predictions.csv',
    handle(async (req, context) => {
      const id = idParam(req.params.id, 'id');
      // an empty watchlist runs no prediction, so a date after today is refused here too
      const referenceDate = context.services.predictions.referenceDate(referenceDateParam(req.query.reference_date));
      const { watchlist } = await run('ExportWatchlist', { id, referenceDate }, context);
      const rows = watchlist.bills.map((b) => watchlistCsvRow(b.billId, b.bill!.prediction));
      return csvAnswer(watchlistCsvFilename(id, referenceDate), WATCHLIST_CSV_COLUMNS, rows);
    }),
  );

  router.get(
    '/predict/:bill_id/history.csv',
    handle(async (req, context) => {
      const billId = billIdParam(req.params.bill_id);
      const { bill } = await run('ExportPredictionHistory', { billId }, context);
      if (!bill) throw notFound(`bill ${billId} does not exist`);
      const rows = bill.predictionHistory.map((p): CsvCell[] => [bill.id, bill.title, p.referenceDate, p.status.toLowerCase(), p.royalAssent, p.nextStage30d, p.model.version, p.model.outOfSample]);
      return csvAnswer(`bill-${billId}-prediction-history.csv`, HISTORY_CSV_COLUMNS, rows);
    }),
  );

  router.get(
    '/webhooks/:id/deliveries.csv',
    handle(async (req, context) => {
      const variables = { id: idParam(req.params.id, 'id'), first: integerQuery(req, 'limit', 50, 1, MAX_DELIVERIES) };
      const rows = (await run('WebhookDeliveries', variables, context)).webhookDeliveries.map((d): CsvCell[] => [
        d.eventId,
        d.eventType,
        d.status,
        d.attempt,
        d.statusCode,
        d.error,
        d.durationMs,
        d.attemptedAt,
        d.nextAttemptAt,
        d.createdAt,
      ]);
      return csvAnswer(`webhook-${variables.id}-deliveries.csv`, DELIVERIES_CSV_COLUMNS, rows);
    }),
  );
}
