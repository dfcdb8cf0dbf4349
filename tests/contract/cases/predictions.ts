import { type ContractCase, type PendingCase, useQuota } from '../doors';
import { aBatchSuccess, anImminentBill, aPrediction, BATCH_SELECTION, graphqlBatch, graphqlImminent, IMMINENT_SELECTION, PREDICTION_SELECTION, restBatch, restPrediction } from '../shapes';

// Specification 4.1–4.3 through both doors: one bill, a batch, the imminent list.

const TODAY = '2021-12-31';
const UNKNOWN_BILL = 999999;

const PREDICT = `query Predict($billId: Int!, $referenceDate: Date) { prediction(billId: $billId, referenceDate: $referenceDate) { ${PREDICTION_SELECTION} } }`;
const BATCH = `query Batch($billIds: [Int!]!, $referenceDate: Date) { predictions(billIds: $billIds, referenceDate: $referenceDate) { ${BATCH_SELECTION} } }`;
const IMMINENT = `query Imminent($daysAhead: Int, $minProbability: Float) { imminentBills(daysAhead: $daysAhead, minProbability: $minProbability) { ${IMMINENT_SELECTION} } }`;

const predictOne = (billId: number, referenceDate?: string): Pick<ContractCase, 'rest' | 'graphql' | 'read'> => ({
  rest: () => ({ method: 'GET', path: `/predict/${billId}`, query: referenceDate ? { reference_date: referenceDate } : undefined }),
  graphql: () => ({ query: PREDICT, variables: { billId, referenceDate } }),
  read: { rest: restPrediction },
});

const batch = (billIds: number[], referenceDate?: string, path = '/predictions/batch'): Pick<ContractCase, 'rest' | 'graphql' | 'read'> => ({
  rest: () => ({ method: 'POST', path, body: referenceDate ? { bill_ids: billIds, reference_date: referenceDate } : { bill_ids: billIds } }),
  graphql: () => ({ query: BATCH, variables: { billIds, referenceDate } }),
  read: { rest: restBatch, graphql: graphqlBatch },
});

const imminent = (daysAhead?: number, minProbability?: number): Pick<ContractCase, 'rest' | 'graphql' | 'read'> => ({
  rest: () => ({
    method: 'GET',
    path: '/predictions/imminent',
    query: { ...(daysAhead !== undefined ? { days_ahead: daysAhead } : {}), ...(minProbability !== undefined ? { min_probability: minProbability } : {}) },
  }),
  graphql: () => ({ query: IMMINENT, variables: { daysAhead, minProbability } }),
  read: {
    rest: (body) => withCheckedCount(body),
    graphql: (data) => withCheckedCount(graphqlImminent(data)),
  },
});

function withCheckedCount(body: { bills: unknown[]; count: number }) {
  expect(body.count).toBe(body.bills.length);
  return body;
}

/** A non-empty list whose every item has exactly the fields of `shape`, matching it. */
const everyItem = (shape: Record<string, unknown>) => ({
  asymmetricMatch: (items: unknown) =>
    Array.isArray(items) &&
    items.length > 0 &&
    items.every((item) => Object.keys(item).sort().join() === Object.keys(shape).sort().join() && expect.objectContaining(shape).asymmetricMatch(item)),
  toAsymmetricMatcher: () => 'a non-empty list of imminent bills',
});

const blocked = (billId: number) => ({ billId, status: 'blocked', detail: expect.stringMatching(/Daily prediction limit reached/) });

export const PREDICTION_CASES: ContractCase<any>[] = [
  {
    name: 'predicts one bill as of today',
    ...predictOne(2900),
    expect: { ok: aPrediction(2900, TODAY) },
    charge: { calls: 1, predictions: 1 },
  },
  {
    name: 'predicts one bill as of a reference date',
    ...predictOne(2900, '2021-11-25'),
    expect: { ok: aPrediction(2900, '2021-11-25') },
    charge: { calls: 1, predictions: 1 },
  },
  {
    name: 'takes the key from X-API-Key as from a bearer token',
    credential: 'x-api-key',
    ...predictOne(2900),
    expect: { ok: aPrediction(2900, TODAY) },
    charge: { calls: 1, predictions: 1 },
  },
  {
    name: 'predicts a batch in request order, reporting an unknown bill in its item and charging it nothing',
    ...batch([2900, UNKNOWN_BILL, 26]),
    expect: {
      ok: {
        items: [aBatchSuccess(2900), { billId: UNKNOWN_BILL, status: 'error', detail: expect.stringContaining(String(UNKNOWN_BILL)) }, aBatchSuccess(26)],
        summary: { total: 3, success: 2, errors: 1, blocked: 0 },
      },
    },
    charge: { calls: 1, batches: 1, predictions: 2 },
  },
  {
    name: 'predicts a batch as of a reference date, under the alias path too',
    ...batch([2900, 26], '2021-11-25', '/predict/batch'),
    expect: { ok: { items: [aBatchSuccess(2900), aBatchSuccess(26)], summary: { total: 2, success: 2, errors: 0, blocked: 0 } } },
    charge: { calls: 1, batches: 1, predictions: 2 },
  },
  {
    name: 'blocks the batch items past the daily prediction limit, in request order',
    arrange: async (t, user) => (await useQuota(t, user, 'predictions', 98), {}),
    ...batch([2900, UNKNOWN_BILL, 26, 144]),
    expect: {
      ok: {
        items: [aBatchSuccess(2900), { billId: UNKNOWN_BILL, status: 'error', detail: expect.any(String) }, aBatchSuccess(26), blocked(144)],
        summary: { total: 4, success: 2, errors: 1, blocked: 1 },
      },
    },
    charge: { calls: 1, batches: 1, predictions: 2 },
  },
  {
    name: 'answers every item of a batch that repeats a bill id, charging the bill once',
    ...batch([2900, 26, 2900]),
    expect: { ok: { items: [aBatchSuccess(2900), aBatchSuccess(26), aBatchSuccess(2900)], summary: { total: 3, success: 3, errors: 0, blocked: 0 } } },
    charge: { calls: 1, batches: 1, predictions: 2 },
  },
  {
    name: 'blocks every item of a batch when no prediction is left, charging no batch request',
    arrange: async (t, user) => (await useQuota(t, user, 'predictions', 100), {}),
    ...batch([2900, 26]),
    expect: { ok: { items: [blocked(2900), blocked(26)], summary: { total: 2, success: 0, errors: 0, blocked: 2 } } },
    charge: { calls: 1 },
  },
  {
    name: 'reports a batch item dated before its bill was introduced, in REST words on REST',
    ...batch([2900, 3089], '2021-11-25'),
    expect: { ok: { items: [aBatchSuccess(2900), { billId: 3089, status: 'error', detail: expect.stringContaining('2021-11-25') }], summary: { total: 2, success: 1, errors: 1, blocked: 0 } } },
    charge: { calls: 1, batches: 1, predictions: 1 },
  },
  {
    name: 'refuses a batch with an argument it does not know, charging the call',
    rest: () => ({ method: 'POST', path: '/predictions/batch', body: { bill_ids: [2900], as_of: '2021-01-04' } }),
    graphql: () => ({ query: 'query Batch($ids: [Int!]!) { predictions(billIds: $ids, as_of: "2021-01-04") { summary { total } } }', variables: { ids: [2900] } }),
    expect: { error: 'BAD_USER_INPUT' },
    charge: { calls: 1 },
  },
  {
    name: 'lists the imminent bills with the specified defaults (7 days, probability 0.5)',
    ...imminent(),
    expect: { ok: { bills: expect.any(Array), count: expect.any(Number) } },
    charge: { calls: 1 },
  },
  {
    name: 'lists the imminent bills within 30 days at any probability',
    ...imminent(30, 0),
    expect: { ok: { bills: everyItem(anImminentBill), count: expect.any(Number) } },
    charge: { calls: 1 },
  },
  {
    name: 'lists the imminent bills with their risks when no prediction is left: the list is no prediction',
    arrange: async (t, user) => (await useQuota(t, user, 'predictions', 100), {}),
    ...imminent(30, 0),
    expect: { ok: { bills: everyItem(anImminentBill), count: expect.any(Number) } },
    charge: { calls: 1 },
  },
];

export const PREDICTION_CASES_PENDING_ON_MAIN: PendingCase[] = [];
