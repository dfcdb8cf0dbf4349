import { MAX_WATCHLIST_BILLS, MAX_WATCHLISTS_PER_ACCOUNT } from '../../services/watchlist.service';

/**
 * What each GraphQL field costs, in units of about 20 µs of server time, so that the budget of a
 * request with a key (5,000) is about 100 ms. A field not named here costs 1 plus its selection.
 * Fields that reach the database or the model weigh what one call measured on the full snapshot
 * (2,861 bills, PGlite; see docs/api-graphql.md, "Query limits"); list fields multiply their selection by
 * the number of items they can return.
 */
export type FieldWeight = (args: Record<string, unknown>, childCost: number, sizes: ListSizes) => number;

/**
 * How many items the lists whose length is the caller's (or the data's) hold, read before the
 * check (see sizedRootFields), so a list is costed by what it really returns.
 */
export interface ListSizes {
  /** bills still live today: the most the imminent list can hold */
  liveBills: number;
  /** the caller's watchlists */
  watchlists: number;
  /** bills on the caller's fullest watchlist */
  watchlistBills: number;
}

/** What the lists are assumed to hold when their real sizes were not read: the most they can. */
export const LIST_SIZE_BOUNDS: ListSizes = { liveBills: 1_000, watchlists: MAX_WATCHLISTS_PER_ACCOUNT, watchlistBills: MAX_WATCHLIST_BILLS };

/** Root fields whose results hold the sized lists: the check reads the real sizes for these. */
export const SIZED_ROOT_FIELDS: ReadonlySet<string> = new Set(['watchlists', 'watchlist', 'createWatchlist', 'renameWatchlist', 'addBillsToWatchlist', 'removeBillFromWatchlist', 'imminentBills', 'watchlistPredictionsCsv']);

/** Budget of an operation sent with a valid key. */
export const KEYED_QUERY_BUDGET = 5_000;
/**
 * Budget of an operation sent without a key: enough for `serviceStatus` and the standard
 * introspection query (about 510), not for repeating them; a lone `trackRecord` has a budget of
 * its own (LONE_TRACK_RECORD_BUDGET).
 */
export const ANONYMOUS_QUERY_BUDGET = 600;
/**
 * Mutation fields one operation may hold. Mutations run one after another, each a transaction of
 * several writes (about 5 ms measured for a watchlist or a threshold); 5 stays well inside the
 * request budget, and is what a client needs at most in one go: the Pilot tier's 5 thresholds
 * of one watchlist (a watchlist created in the same request cannot be referred to anyway).
 */
export const MAX_MUTATIONS = 5;

/** One database round trip with its row mapping (a count, a page, a lookup): ~2 ms measured. */
const DB_QUERY = 100;
/** Each bill row a page loads and maps, before its selection. */
const BILL_ROW = 5;
/** A relation loaded through a DataLoader: one query per request, shared by every bill of a page. */
const LOADED_RELATION = 8;
/** A list of a user's own rows not sized by ListSizes (thresholds): assumed up to this many. */
const OWN_ROWS = 10;
/** A mutation: a transaction of a few writes. Mutation fields not named below weigh this too. */
const MUTATION = 400;
/**
 * A scalar or enum read off an object already in memory: 2 µs. Leaves are what a list item is
 * mostly made of (a watchlist of 500 bills, each with its prediction's 30 leaves, answers in
 * about 60 ms), so weighing them as a whole unit would refuse lists that are cheap to serve.
 */
const LEAF = 0.1;
/** Each item of a list already in memory: its object and its place in the response. */
const ITEM = 1;
/** Each row of a watchlist's bills, read and mapped (every bill of 5 watchlists of 500: 200 ms measured, ~80 µs a row). */
const WATCHLIST_ROW = 3;
/** A nowcast of a bill in a list, through the request's DataLoader (one model call for the whole list): ~20 µs measured. */
const LISTED_NOWCAST = 1;
/** The explanations of a prediction load the bill's facts again and run the model on up to 16 mixed bills (that part: 0.4 ms median, 0.8 ms at the 90th percentile, scripts/explain-timing.mjs): generously weighed. */
const EXPLANATIONS = 750;
/**
 * A nowcast at a reference date named by the client (the weight takes any date named as a past
 * one): the bill's facts as of that date and its vintage's model, not cached for the day as
 * today's are: 1.7 ms measured for one bill with its vintage in memory.
 */
const DATED_NOWCAST = 100;
/** Each bill of a batch or a list at a named date: the batch reads its facts together (20–80 ms for 100 bills measured). */
const DATED_LISTED_NOWCAST = 25;
/** The next digest composed as if sent now (src/services/digest.service.ts): some ten queries and the nowcasts of its bills. */
const DIGEST_PREVIEW = 1_000;
/** A bill's chart: nowcasts at the dates of its life, not cached: 20–30 ms measured. */
const PREDICTION_HISTORY = 1_250;
/** The points of a chart: dates over a bill's life (see src/services/chart-dates.ts). */
const CHART_POINTS = 60;

const num = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 1);

/** `Type.field` → its weight. */
export const FIELD_WEIGHTS: Readonly<Record<string, FieldWeight>> = {
  // a COUNT over every bill per call: 3.6 ms measured
  'Query.serviceStatus': (_args, child) => 10 + child,
  'ServiceStatus.billCount': () => 1.5 * DB_QUERY,
  'Query.me': (_args, child) => 10 + child,
  'Query.sessions': (_args, child) => 1.5 * DB_QUERY + child,
  'Query.bill': (_args, child) => 30 + child,
  // a count and a page; a title search scans every title twice (27 ms measured for one call)
  'Query.bills': (args, child) => {
    const filter = (args.filter ?? {}) as { titleContains?: unknown };
    return 2 * DB_QUERY + (filter.titleContains ? 10 * DB_QUERY : 0) + num(args.first, 20) * (BILL_ROW + child);
  },
  'Query.prediction': (args, child) => (args.referenceDate ? DATED_NOWCAST : 20) + child,
  // each bill of the batch is a nowcast and an item with the batch's selection
  'Query.predictions': (args, child) => 50 + lengthOf(args.billIds) * ((args.referenceDate ? DATED_LISTED_NOWCAST : 3) + child),
  // the nowcasts of every active bill (7 ms measured for the count alone), shared; the list holds up to every live bill
  'Query.imminentBills': (_args, child, sizes) => 3.5 * DB_QUERY + sizes.liveBills * (ITEM + child),
  'ImminentBill.prediction': (_args, child) => LISTED_NOWCAST + child,
  'Query.watchlists': (_args, child, sizes) => DB_QUERY + sizes.watchlists * (ITEM + child),
  'Query.watchlist': (_args, child) => DB_QUERY + child,
  'Query.alertThresholds': (_args, child) => DB_QUERY + OWN_ROWS * child,
  // a page of triggers and three aggregate counts: 8.7 ms measured
  'Query.alertHistory': (args, child) => 4 * DB_QUERY + num(args.first, 50) * child,
  'Bill.stages': (_args, child) => LOADED_RELATION + child,
  'Bill.sponsors': (_args, child) => LOADED_RELATION + child,
  'Bill.divisions': (_args, child) => LOADED_RELATION + child,
  'Bill.scheduledSittings': (_args, child) => LOADED_RELATION + child,
  'Bill.introducedSession': (_args, child) => LOADED_RELATION + child,
  'Bill.prediction': (args, child) => LOADED_RELATION + (args.referenceDate ? DATED_LISTED_NOWCAST : 0) + child,
  'Bill.predictionHistory': (_args, child) => PREDICTION_HISTORY + CHART_POINTS * (ITEM + child),
  'Prediction.explanations': (_args, child) => EXPLANATIONS + child,
  'Watchlist.bills': (_args, child, sizes) => LOADED_RELATION + sizes.watchlistBills * (WATCHLIST_ROW + child),
  'WatchlistBill.prediction': (_args, child) => LISTED_NOWCAST + child,
  // a digest composed as if sent now: a few queries per slot, the slot's events and today's nowcast
  // of each bill it lists (cached for the day): weighed so that a request holds a few, not hundreds
  'Account.nextDigest': (_args, child) => DIGEST_PREVIEW + child,
  // the CSV file of a watchlist: each bill's row and its nowcast (at the date named, if one is)
  'Query.watchlistPredictionsCsv': (args, child, sizes) => DB_QUERY + sizes.watchlistBills * (WATCHLIST_ROW + (args.referenceDate ? DATED_LISTED_NOWCAST : LISTED_NOWCAST)) + child,
  // evaluates every threshold of the caller against today's nowcasts: the heaviest field there is
  'Mutation.checkAlerts': (_args, child) => 2_500 + child,
  // the record's state read (the last forecast recorded, the data state), then a record kept for it; its lists have fixed lengths
  'Query.trackRecord': (_args, child) => DB_QUERY + child,
  'TrackRecord.sets': (_args, child) => 3 * (ITEM + child),
  'RecordSet.outputs': (_args, child) => 3 * (ITEM + child),
  'RecordOutput.byKind': (_args, child) => 6 * (ITEM + child),
  'RecordOutput.byHorizon': (_args, child) => 5 * (ITEM + child),
  'RecordScores.reliability': (_args, child) => 10 * (ITEM + child),
};

/**
 * The budget of an operation that is one `trackRecord` and nothing else, with or without a key:
 * the weight of its fullest selection (every set, output, group and reliability row: about
 * 2,700 by the weights above), so anyone may read the whole record in one request but not
 * several copies of it.
 */
export const LONE_TRACK_RECORD_BUDGET = 3_000;

/** The root field that LONE_TRACK_RECORD_BUDGET is for. */
export const LONE_TRACK_RECORD_FIELD = 'trackRecord';

/** The root field that LONE_EXPORT_BUDGET is for. */
export const LONE_EXPORT_FIELD = 'watchlistPredictionsCsv';

/**
 * The budget of an operation that is one watchlist export and nothing else: the cost of the
 * fullest one there can be (MAX_WATCHLIST_BILLS bills at a named date, every field of the file),
 * 14,101, about 280 ms by the weights (100–150 ms measured for 500 bills at a fresh date, 440 ms
 * the first time a session's vintage loads). It is the work REST's predictions.csv does for the
 * same file, and it is paid for: every bill's prediction counts against the daily quota. A second
 * export or any other field beside it in the operation brings back the keyed budget.
 */
export const LONE_EXPORT_BUDGET = Math.ceil(FIELD_WEIGHTS[`Query.${LONE_EXPORT_FIELD}`]({ referenceDate: 'a past date' }, 3 * LEAF, LIST_SIZE_BOUNDS));

/**
 * Each value (object or leaf) in an answer of the schema's description of itself (`__schema`,
 * `__type` and what they hold), read off the schema in memory. Measured on graphql-js: the
 * standard introspection query (130 KB) in 8 ms, which this weighs at about 420; 60 aliased
 * `__schema { types { fields … } }` (1.5 MB) in 200 ms, weighed at about 7,700.
 */
const INTROSPECTION_VALUE = 0.07;

/**
 * A field of the schema's description of itself: a list weighs its items for as many as the
 * schema's lists of that kind hold on average (`listLength`, read off the schema), so
 * introspection is priced by its answer, not by its document.
 */
export const introspectionWeight =
  (listLength: number | undefined): FieldWeight =>
  (_args, child) =>
    (listLength ?? 1) * (INTROSPECTION_VALUE + child);

const plainField: FieldWeight = (_args, child) => 1 + child;
const leafField: FieldWeight = () => LEAF;
const mutationField: FieldWeight = (_args, child) => MUTATION + child;

/** The weight of `parent.field`; any mutation field is heavy unless it is named above, and a leaf not named is light. */
export const weightOf = (parent: string, field: string, isMutationRoot: boolean, isLeaf = false): FieldWeight =>
  FIELD_WEIGHTS[`${parent}.${field}`] ?? (isMutationRoot ? mutationField : isLeaf ? leafField : plainField);
