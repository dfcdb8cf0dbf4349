/**
 * What each GraphQL field costs, in units of about 20 µs of server time, so that the budget of a
 * request with a key (5,000) is about 100 ms. A field not named here costs 1 plus its selection.
 * Fields that reach the database or the model weigh what one call measured on the full snapshot
 * (2,861 bills, PGlite; see docs/api.md, "Query cost"); list fields multiply their selection by
 * the number of items they can return.
 */
export type FieldWeight = (args: Record<string, unknown>, childCost: number) => number;

/** Budget of an operation sent with a valid key. */
export const KEYED_QUERY_BUDGET = 5_000;
/**
 * Budget of an operation sent without a key: enough for `serviceStatus` (the only public field)
 * and introspection, not for repeating them.
 */
export const ANONYMOUS_QUERY_BUDGET = 500;
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
/** A list of a user's own rows (watchlists, thresholds, bills of a watchlist): assumed up to this many. */
const OWN_ROWS = 10;
/** A mutation: a transaction of a few writes. Mutation fields not named below weigh this too. */
const MUTATION = 400;

const num = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 1);

/** `Type.field` → its weight. */
export const FIELD_WEIGHTS: Readonly<Record<string, FieldWeight>> = {
  // a COUNT over every bill per call: 3.6 ms measured
  'Query.serviceStatus': (_args, child) => 1.5 * DB_QUERY + child,
  'Query.me': (_args, child) => 10 + child,
  'Query.sessions': (_args, child) => 1.5 * DB_QUERY + child,
  'Query.bill': (_args, child) => 30 + child,
  // a count and a page; a title search scans every title twice (27 ms measured for one call)
  'Query.bills': (args, child) => {
    const filter = (args.filter ?? {}) as { titleContains?: unknown };
    return 2 * DB_QUERY + (filter.titleContains ? 10 * DB_QUERY : 0) + num(args.first, 20) * (BILL_ROW + child);
  },
  'Query.prediction': (_args, child) => 20 + child,
  // each bill of the batch is a nowcast and an item with the batch's selection
  'Query.predictions': (args, child) => 50 + lengthOf(args.billIds) * (3 + child),
  // the nowcasts of every active bill (7 ms measured for the count alone); the list holds up to a few hundred
  'Query.imminentBills': (_args, child) => 3.5 * DB_QUERY + 100 * child,
  'Query.watchlists': (_args, child) => DB_QUERY + OWN_ROWS * child,
  'Query.watchlist': (_args, child) => DB_QUERY + child,
  'Query.alertThresholds': (_args, child) => DB_QUERY + OWN_ROWS * child,
  // a page of triggers and three aggregate counts: 8.7 ms measured
  'Query.alertHistory': (args, child) => 4 * DB_QUERY + num(args.first, 50) * child,
  'Bill.stages': (_args, child) => LOADED_RELATION + child,
  'Bill.sponsors': (_args, child) => LOADED_RELATION + child,
  'Bill.divisions': (_args, child) => LOADED_RELATION + child,
  'Bill.introducedSession': (_args, child) => LOADED_RELATION + child,
  'Bill.prediction': (_args, child) => LOADED_RELATION + child,
  'Watchlist.bills': (_args, child) => LOADED_RELATION + OWN_ROWS * child,
  'WatchlistBill.prediction': (_args, child) => LOADED_RELATION + child,
  // evaluates every threshold of the caller against today's nowcasts: the heaviest field there is
  'Mutation.checkAlerts': (_args, child) => 2_500 + child,
};

const plainField: FieldWeight = (_args, child) => 1 + child;
const mutationField: FieldWeight = (_args, child) => MUTATION + child;

/** The weight of `parent.field`; any mutation field is heavy unless it is named above. */
export const weightOf = (parent: string, field: string, isMutationRoot: boolean): FieldWeight =>
  FIELD_WEIGHTS[`${parent}.${field}`] ?? (isMutationRoot ? mutationField : plainField);
