import { commonErrors, deleted, error, idParam, jsonBody, ok } from './common';
import { PREDICTION_EXAMPLES } from './predictions-paths';

// Specification 4.5: watchlists (Pilot and above), and the operations on their bills.

const { predictions, risk_indicators } = PREDICTION_EXAMPLES.PREDICTION_EXAMPLE;

const WATCHLIST_EXAMPLE = {
  id: 7,
  name: 'Marriage law',
  description: 'PMBs on marriage',
  bill_count: 1,
  created_at: '2026-11-22T12:00:00.000Z',
  updated_at: '2026-11-22T12:00:00.000Z',
  calendar_url: 'http://localhost:4000/api/v1/calendar/yK2pQ8vN3sL7dF1gH5jR9tW4xZ0bC6mA2eU8iO1nV7q.ics',
  feed_url: 'http://localhost:4000/api/v1/feeds/yK2pQ8vN3sL7dF1gH5jR9tW4xZ0bC6mA2eU8iO1nV7q.atom',
};
const CREATED_EXAMPLE = { ...WATCHLIST_EXAMPLE, bills: [{ bill_id: 2900, title: 'Marriage and Civil Partnership (Minimum Age) Bill', added_at: '2026-11-22T12:00:00.000Z' }] };
const DETAIL_EXAMPLE = {
  ...WATCHLIST_EXAMPLE,
  bills: [
    {
      bill_id: 2900,
      title: 'Marriage and Civil Partnership (Minimum Age) Bill',
      added_at: '2026-11-22T12:00:00.000Z',
      current_stage: { stage: 'second_reading', house: 'Commons', date: '2021-11-26' },
      predictions,
      risk_indicators,
    },
  ],
};

const notYours = error('no such watchlist of yours (another account’s answers the same)', 'watchlist 7 does not exist');

export const WATCHLIST_PATHS = {
  '/dashboard/watchlists': {
    get: { operationId: 'listWatchlists', summary: 'The caller’s watchlists (4.5; pilot and above)', responses: { '200': ok('#/components/schemas/WatchlistList', 'success', { watchlists: [WATCHLIST_EXAMPLE] }), ...commonErrors } },
    post: {
      operationId: 'createWatchlist',
      summary: 'Create a watchlist, optionally with bills; answers 200 with the created watchlist',
      requestBody: jsonBody('#/components/schemas/WatchlistRequest', {
        withBills: { summary: 'a watchlist with one bill', value: { name: 'Marriage law', description: 'PMBs on marriage', bill_ids: [2900] } },
        empty: { summary: 'an empty watchlist', value: { name: 'To read' } },
      }),
      responses: {
        '200': ok('#/components/schemas/WatchlistDetail', 'created', CREATED_EXAMPLE),
        '404': error('a bill in bill_ids does not exist (the detail names them)', 'bills 999998, 999999 do not exist'),
        ...commonErrors,
      },
    },
  },
  '/dashboard/watchlists/{id}': {
    get: {
      operationId: 'getWatchlist',
      summary: 'A watchlist with its bills, each with its current stage and today’s predictions and risk indicators in the shape of GET /predict/{bill_id} (counted as predictions)',
      description:
        'Each bill’s predictions are one prediction of the daily limit, charged at every read. With `predictions=false` the bills come without `current_stage`, `predictions` and `risk_indicators` (each bill is `bill_id`, `title`, `added_at`, as POST answers) and no prediction is charged: the read is one API call. Without the parameter, or with `true`, the answer is the one above.',
      parameters: [
        idParam('id'),
        { name: 'predictions', in: 'query', required: false, description: '`false`: the bills without their predictions, charging none; only `true` or `false`', schema: { type: 'string', enum: ['true', 'false'], default: 'true' } },
      ],
      responses: { '200': ok('#/components/schemas/WatchlistDetail', 'success', DETAIL_EXAMPLE), '404': notYours, ...commonErrors },
    },
    delete: {
      operationId: 'deleteWatchlist',
      summary: 'Delete a watchlist and its thresholds; its alert history stays readable',
      parameters: [idParam('id')],
      responses: { '200': deleted('watchlist'), '404': notYours, ...commonErrors },
    },
  },
  '/dashboard/watchlists/{id}/bills': {
    post: {
      operationId: 'addWatchlistBills',
      summary: 'Add bills: {"bill_id": n} or {"bill_ids": [...]} (already present ones are kept once)',
      parameters: [idParam('id')],
      requestBody: jsonBody('#/components/schemas/WatchlistBillsRequest', {
        one: { summary: 'one bill', value: { bill_id: 3089 } },
        several: { summary: 'several bills', value: { bill_ids: [26, 144] } },
      }),
      responses: { '200': ok('#/components/schemas/WatchlistDetail', 'the watchlist with its bills', CREATED_EXAMPLE), '404': error('no such watchlist of yours, or unknown bills (named)'), ...commonErrors },
    },
  },
  '/dashboard/watchlists/{id}/bills/{bill_id}': {
    delete: {
      operationId: 'removeWatchlistBill',
      summary: 'Remove a bill',
      parameters: [idParam('id'), idParam('bill_id')],
      responses: { '200': ok('#/components/schemas/WatchlistDetail', 'the watchlist with its remaining bills', { ...WATCHLIST_EXAMPLE, bill_count: 0, bills: [] }), '404': error('no such watchlist of yours, or the bill is not on it'), ...commonErrors },
    },
  },
};
