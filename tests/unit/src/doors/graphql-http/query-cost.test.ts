import { getIntrospectionQuery, type GraphQLSchema, type OperationDefinitionNode, parse } from 'graphql';
import { buildAppSchema } from '../../../../../src/graphql/build-schema';
import { operationCost, operationDepth } from '../../../../../src/doors/graphql-http/query-cost';
import { ANONYMOUS_QUERY_BUDGET, KEYED_QUERY_BUDGET, LIST_SIZE_BOUNDS, type ListSizes, LONE_EXPORT_BUDGET } from '../../../../../src/doors/graphql-http/query-weights';

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildAppSchema();
});

const operationOf = (text: string) => {
  const document = parse(text);
  return { document, operation: document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')! };
};
const costOf = (text: string, options: { anonymous?: boolean; variables?: Record<string, unknown>; sizes?: ListSizes } = {}) => {
  const { document, operation } = operationOf(text);
  return operationCost(schema, document, operation, { anonymous: options.anonymous ?? false, variables: options.variables, sizes: options.sizes });
};

/** Fragments F0 … F(n-1), each spreading the next twice: 2^n paths, n + 1 fragments. */
const doublingFragments = (n: number, leaf: string) => {
  let text = '{ ...F0 }\n';
  for (let i = 0; i < n; i++) text += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }\n`;
  return `${text}fragment F${n} on Query { ${leaf} }\n`;
};

describe('the cost of an operation', () => {
  it('walks each fragment once however many paths lead to it, and still counts every path', () => {
    const report = costOf(doublingFragments(30, 'me { id }'));
    expect(report.fragmentWalks).toBe(31);
    // 2^30 copies of `me { id }` (10, and 0.1 for the leaf)
    expect(Math.abs(report.cost - 2 ** 30 * 10.1)).toBeLessThanOrEqual(1);
  });

  it('walks a fragment spread many times in one selection set once', () => {
    const report = costOf(`fragment A on Query { me { id } } { ${'...A '.repeat(500)} }`);
    expect(report.fragmentWalks).toBe(1);
    // 500 copies of `me { id }`, rounded up (the leaves' tenths add up in floating point)
    expect(Math.abs(report.cost - 500 * 10.1)).toBeLessThanOrEqual(1);
  });

  it('weighs a title search as the scans it makes, and a page by its size', () => {
    const plain = costOf('{ bills(first: 1) { totalCount } }').cost;
    const search = costOf('{ bills(first: 1, filter: { titleContains: "health" }) { totalCount } }').cost;
    expect(search).toBeGreaterThan(plain * 4);
    expect(costOf('{ bills(first: 100) { nodes { id } } }').cost).toBeGreaterThan(costOf('{ bills(first: 10) { nodes { id } } }').cost);
    // a page size given as a variable counts like a literal one
    expect(costOf('query ($n: Int!) { bills(first: $n) { nodes { id } } }', { variables: { n: 100 } }).cost).toBe(costOf('{ bills(first: 100) { nodes { id } } }').cost);
  });

  it('keeps a full page of 100 bills with their relations within the keyed budget, and a handful of title searches over it', () => {
    expect(costOf('{ bills(first: 100) { nodes { id title stages { stage dates } sponsors { name } divisions { date } prediction { royalAssent } } } }').cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET);
    const searches = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `s${i}: bills(first: 1, filter: { titleContains: "x" }) { totalCount }`).join(' ')} }`;
    expect(costOf(searches(3)).cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET);
    expect(costOf(searches(10)).cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
  });

  it('costs the lists of a caller by their real lengths: every bill of 20 full watchlists is over the budget, one full watchlist with its predictions is not', () => {
    const everyBill = '{ watchlists { bills { billId } } }';
    expect(costOf(everyBill, { sizes: { watchlists: 20, watchlistBills: 500, liveBills: 156 } }).cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
    expect(costOf(everyBill, { sizes: { watchlists: 2, watchlistBills: 10, liveBills: 156 } }).cost).toBeLessThan(KEYED_QUERY_BUDGET / 10);
    const oneFull = `{ watchlist(id: 1) { bills { billId addedAt bill { title } prediction {
      billId billTitle referenceDate status royalAssent nextStage30d timelineEtaDays stallRisk amendmentRisk closeVote withdrawalRisk
      riskIndicators { controversyScore momentumScore stallRiskLevel withdrawalRiskLevel amendmentRiskLevel closeVoteLevel } lastStage { stage house date } } } } }`;
    expect(costOf(oneFull, { sizes: { watchlists: 1, watchlistBills: 500, liveBills: 156 } }).cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET);
    // without the real sizes, the most a list can hold
    expect(costOf(everyBill).cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
  });

  it('weighs what re-runs the model: explanations for every imminent bill, or charts for a page of bills, are over the budget', () => {
    const sizes = { watchlists: 0, watchlistBills: 0, liveBills: 156 };
    expect(costOf('{ imminentBills(daysAhead: 30, minProbability: 0) { bills { billId billTitle stallRisk } } }', { sizes }).cost).toBeLessThan(KEYED_QUERY_BUDGET / 4);
    expect(costOf('{ imminentBills(daysAhead: 30, minProbability: 0) { bills { prediction { explanations { royalAssent { factor } } } } } }', { sizes }).cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
    expect(costOf('{ prediction(billId: 1) { explanations { royalAssent { factor effect } nextStage30d { factor effect } } } }').cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET / 5);
    expect(costOf('{ bills(first: 5) { nodes { predictionHistory { royalAssent } } } }').cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
    expect(costOf('{ bill(id: 1) { prediction { royalAssent explanations { royalAssent { factor } } } predictionHistory { referenceDate royalAssent nextStage30d } } }').cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET / 2);
  });

  it('weighs the next digest and a watchlist\'s CSV file as the work they do: one of each fits, hundreds of aliased copies do not', () => {
    const sizes = { watchlists: 5, watchlistBills: 500, liveBills: 156 };
    const digests = (n: number) => `{ me { ${Array.from({ length: n }, (_, i) => `d${i}: nextDigest { subject }`).join(' ')} } }`;
    expect(costOf(digests(1)).cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET / 4);
    expect(costOf(digests(10)).cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
    const files = (n: number, dated = false) => `{ ${Array.from({ length: n }, (_, i) => `f${i}: watchlistPredictionsCsv(id: 1${dated ? ', referenceDate: "2021-06-01"' : ''}) { csv }`).join(' ')} }`;
    expect(costOf(files(1), { sizes }).cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET / 2);
    expect(costOf(files(5), { sizes }).cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
    expect(costOf(files(2, true), { sizes: { ...sizes, watchlistBills: 50 } }).cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET);
    expect(costOf(files(1, true), { sizes }).cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
    // the budget of an export alone in its operation is the cost of the fullest one, whatever the weights become
    expect(costOf('{ watchlistPredictionsCsv(id: 1, referenceDate: "2021-06-01") { filename csv rows } }', { sizes: LIST_SIZE_BOUNDS }).cost).toBe(LONE_EXPORT_BUDGET);
  });

  it('gives a request without a key room for serviceStatus, not for many copies of it', () => {
    expect(costOf('{ serviceStatus { today ready pending billCount attribution } }', { anonymous: true }).cost).toBeLessThanOrEqual(ANONYMOUS_QUERY_BUDGET);
    const copies = `{ ${Array.from({ length: 5 }, (_, i) => `s${i}: serviceStatus { billCount }`).join(' ')} }`;
    expect(costOf(copies, { anonymous: true }).cost).toBeGreaterThan(ANONYMOUS_QUERY_BUDGET);
  });

  it('prices introspection by its answer: the standard query fits a request without a key, two copies or many aliased __schema do not', () => {
    const standard = costOf(getIntrospectionQuery(), { anonymous: true }).cost;
    expect(standard).toBeLessThanOrEqual(ANONYMOUS_QUERY_BUDGET);
    expect(standard).toBeGreaterThan(ANONYMOUS_QUERY_BUDGET / 2);
    const body = getIntrospectionQuery().replace(/^\s*query IntrospectionQuery \{/, '').replace(/\}\s*(fragment[\s\S]*)$/, '');
    const fragments = getIntrospectionQuery().slice(getIntrospectionQuery().indexOf('fragment'));
    expect(costOf(`{ a: ${body.trim()} b: ${body.trim()} } ${fragments}`, { anonymous: true }).cost).toBeGreaterThan(ANONYMOUS_QUERY_BUDGET);
    const aliased = `{ ${Array.from({ length: 60 }, (_, i) => `s${i}: __schema { types { name fields { name args { name } type { name } } } }`).join(' ')} }`;
    expect(costOf(aliased, { anonymous: true }).cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
    // one type's fields are about a type's share of the schema's fields
    expect(costOf('{ __type(name: "Bill") { name fields { name } } }', { anonymous: true }).cost).toBeLessThan(standard / 10);
  });

  it('weighs a nowcast at a named date as what it computes: hundreds of them are over the budget, a batch of 100 at one date is not', () => {
    const dated = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `p${i}: prediction(billId: ${2000 + i}, referenceDate: "2020-01-${String((i % 28) + 1).padStart(2, '0')}") { royalAssent }`).join(' ')} }`;
    expect(costOf(dated(210)).cost).toBeGreaterThan(KEYED_QUERY_BUDGET);
    expect(costOf(dated(20)).cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET);
    const today = `{ ${Array.from({ length: 210 }, (_, i) => `p${i}: prediction(billId: ${2000 + i}) { royalAssent }`).join(' ')} }`;
    expect(costOf(today).cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET);
    const batch = `{ predictions(billIds: [${Array.from({ length: 100 }, (_, i) => 2000 + i)}], referenceDate: "2020-01-01") { items { prediction { royalAssent } } } }`;
    expect(costOf(batch).cost).toBeLessThanOrEqual(KEYED_QUERY_BUDGET);
  });

  it('counts a field a request without a key may not call as its refusal only', () => {
    const query = '{ bills(first: 100) { nodes { id title } } }';
    expect(costOf(query, { anonymous: true }).cost).toBe(1);
    expect(costOf(query).cost).toBeGreaterThan(100);
  });

  it('counts the mutations of an operation, through fragments and aliases, each at a heavy weight', () => {
    const report = costOf('mutation { a: deleteWatchlist(id: 1) b: deleteWatchlist(id: 2) ...M ... on Mutation { checkAlerts { billsChecked } } } fragment M on Mutation { deleteAlertThreshold(id: 3) }');
    expect(report.mutations).toBe(4);
    expect(report.cost).toBeGreaterThan(3 * 400 + 2_500);
    expect(costOf('{ me { id } }').mutations).toBe(0);
  });
});

describe('the depth of an operation', () => {
  it('walks each fragment once however many paths lead to it', () => {
    const { document, operation } = operationOf(doublingFragments(30, 'bill(id: 1) { introducedSession { id } }'));
    expect(operationDepth(document, operation)).toEqual({ depth: 3, fragmentWalks: 31 });
  });

  it('counts through inline fragments and named ones', () => {
    const { document, operation } = operationOf('{ bill(id: 1) { ... on Bill { ...S } } } fragment S on Bill { introducedSession { name } }');
    expect(operationDepth(document, operation).depth).toBe(3);
  });
});
