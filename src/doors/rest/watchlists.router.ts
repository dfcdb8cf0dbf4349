import type { RouteTable } from './route-table';
import { ALERT_TYPES, COMPARISONS } from '../../vocabulary';
import { ALERT_PATH_PREFIXES } from './alert-prefixes';
import { badInput } from '../../errors';
import { isId } from '../../common/ids';
import type { Gateway } from '../../gateway/pipeline';
import type { RunOperation } from './run-operation';
import { booleanQuery, dateParam, deleted, idParam, integerQuery, jsonObject } from './params';
import { heldToDocument } from './documented-operations';
import { type Handler, route } from './route';
import { history, threshold, trigger, watchlistDetail, watchlistSummary } from './watchlist.mapper';

const optionalInteger = (value: unknown, name: string) => {
  if (value === undefined || value === null) return value as null | undefined;
  if (!isId(value)) throw badInput(`${name} must be a positive integer`);
  return value;
};

/** An enum value of the specification (lower case) as the GraphQL enum's name. */
function enumName(value: unknown, name: string, allowed: readonly string[]): string {
  if (typeof value !== 'string' || !allowed.includes(value)) throw badInput(`${name} must be one of ${allowed.join(', ')}`);
  return value.toUpperCase();
}

/** Specification 4.4 (alert thresholds, check, history) and 4.5 (watchlists). JSON bodies were parsed and held to the document by documentedOperations. */
export function addWatchlistRoutes(router: RouteTable, gateway: Gateway, run: RunOperation): void {
  const handle = (handler: Handler) => route(gateway, heldToDocument(handler));

  router.get('/dashboard/watchlists', handle(async (_req, context) => ({ watchlists: (await run('ListWatchlists', {}, context)).watchlists.map(watchlistSummary) })));

  router.post(
    '/dashboard/watchlists',
    handle(async (req, context) => {
      const body = jsonObject(req);
      const input = { name: body.name, description: body.description ?? null, billIds: body.bill_ids ?? null };
      if (typeof input.name !== 'string') throw badInput('name must be 1 to 100 characters');
      if (input.description !== null && typeof input.description !== 'string') throw badInput('description must be a string of at most 1000 characters');
      if (input.billIds !== null && !Array.isArray(input.billIds)) throw badInput('bill_ids must be an array of bill ids');
      for (const id of (input.billIds as unknown[] | null) ?? []) optionalInteger(id, 'bill_ids');
      return watchlistDetail((await run('CreateWatchlist', { input }, context)).createWatchlist);
    }),
  );

  router.get(
    '/dashboard/watchlists/:id',
    handle(async (req, context) => {
      const id = idParam(req.params.id, 'id');
      // without predictions no bill is a prediction answered, so none is charged
      if (!booleanQuery(req, 'predictions', true)) return watchlistDetail((await run('GetWatchlistBills', { id }, context)).watchlist);
      return watchlistDetail((await run('GetWatchlist', { id }, context)).watchlist);
    }),
  );

  router.delete(
    '/dashboard/watchlists/:id',
    handle(async (req, context) => {
      const id = idParam(req.params.id, 'id');
      await run('DeleteWatchlist', { id }, context);
      return deleted(id);
    }),
  );

  router.post(
    '/dashboard/watchlists/:id/bills',
    handle(async (req, context) => {
      const body = jsonObject(req);
      const ids = body.bill_ids !== undefined ? body.bill_ids : body.bill_id !== undefined ? [body.bill_id] : null;
      if (!Array.isArray(ids) || !ids.length) throw badInput('give bill_id (an integer) or bill_ids (an array of integers)');
      for (const id of ids) optionalInteger(id, body.bill_ids !== undefined ? 'bill_ids' : 'bill_id');
      return watchlistDetail((await run('AddWatchlistBills', { id: idParam(req.params.id, 'id'), billIds: ids }, context)).addBillsToWatchlist);
    }),
  );

  router.delete(
    '/dashboard/watchlists/:id/bills/:bill_id',
    handle(async (req, context) =>
      watchlistDetail((await run('RemoveWatchlistBill', { id: idParam(req.params.id, 'id'), billId: idParam(req.params.bill_id, 'bill_id') }, context)).removeBillFromWatchlist),
    ),
  );

  const createThreshold = handle(async (req, context) => {
    const body = jsonObject(req);
    const watchlistId = optionalInteger(body.watchlist_id, 'watchlist_id');
    if (!watchlistId) throw badInput('watchlist_id must be a positive integer');
    if (typeof body.threshold_value !== 'number' || !Number.isFinite(body.threshold_value)) throw badInput('threshold_value must be a number');
    const input = {
      watchlistId,
      billId: optionalInteger(body.bill_id, 'bill_id') ?? null,
      alertType: enumName(body.alert_type, 'alert_type', ALERT_TYPES),
      thresholdValue: body.threshold_value,
      comparison: body.comparison === undefined || body.comparison === null ? null : enumName(body.comparison, 'comparison', COMPARISONS),
    };
    return threshold((await run('CreateThreshold', { input }, context)).createAlertThreshold);
  });

  const listThresholds = handle(async (_req, context) => ({ thresholds: (await run('ListThresholds', {}, context)).alertThresholds.map(threshold) }));

  const deleteThreshold = handle(async (req, context) => {
    const id = idParam(req.params.id, 'id');
    await run('DeleteThreshold', { id }, context);
    return deleted(id);
  });

  const checkAlerts = handle(async (_req, context) => {
    const result = (await run('CheckAlerts', {}, context)).checkAlerts;
    return {
      checked_at: result.checkedAt,
      thresholds_checked: result.thresholdsChecked,
      bills_checked: result.billsChecked,
      bills_blocked: result.billsBlocked,
      triggered: result.triggered.map(trigger),
      count: result.triggered.length,
    };
  });

  const alertHistory = handle(async (req, context) => {
    const q = req.query;
    const filter = {
      billId: q.bill_id === undefined ? undefined : idParam(q.bill_id, 'bill_id'),
      alertType: q.alert_type === undefined ? undefined : enumName(q.alert_type, 'alert_type', ALERT_TYPES),
      from: dateParam(q.from, 'from'),
      to: dateParam(q.to, 'to'),
    };
    const variables = { filter, first: integerQuery(req, 'limit', 50, 1, 100), after: typeof q.cursor === 'string' ? q.cursor : null };
    return history((await run('AlertHistory', variables, context)).alertHistory);
  });

  for (const prefix of ALERT_PATH_PREFIXES) {
    router.post(`${prefix}/thresholds`, createThreshold);
    router.get(`${prefix}/thresholds`, listThresholds);
    router.delete(`${prefix}/thresholds/:id`, deleteThreshold);
    router.post(`${prefix}/check`, checkAlerts);
    router.get(`${prefix}/history`, alertHistory);
  }

}
