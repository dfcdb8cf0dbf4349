import { type ContractCase, type PendingCase, useQuota } from '../doors';

// Every error of the specification's section 7 through both doors: the same code, and the same
// (or no) charge. The happy paths of these requests are in predictions.ts.

const PREDICT = 'query Predict($billId: Int!, $referenceDate: Date) { prediction(billId: $billId, referenceDate: $referenceDate) { billId royalAssent } }';
const BATCH = 'query Batch($billIds: [Int!]!, $referenceDate: Date) { predictions(billIds: $billIds, referenceDate: $referenceDate) { summary { total } } }';
const IMMINENT = 'query Imminent($daysAhead: Int, $minProbability: Float) { imminentBills(daysAhead: $daysAhead, minProbability: $minProbability) { count } }';
const WATCHLISTS = 'query Watchlists { watchlists { id } }';
const CREATE_WATCHLIST = 'mutation Create($input: CreateWatchlistInput!) { createWatchlist(input: $input) { id } }';

const predict = (billId: number, referenceDate?: string): Pick<ContractCase, 'rest' | 'graphql'> => ({
  rest: () => ({ method: 'GET', path: `/predict/${billId}`, query: referenceDate !== undefined ? { reference_date: referenceDate } : undefined }),
  graphql: () => ({ query: PREDICT, variables: { billId, referenceDate } }),
});

const batch = (billIds: number[]): Pick<ContractCase, 'rest' | 'graphql'> => ({
  rest: () => ({ method: 'POST', path: '/predictions/batch', body: { bill_ids: billIds } }),
  graphql: () => ({ query: BATCH, variables: { billIds } }),
});

const imminent = (daysAhead: number, minProbability: number): Pick<ContractCase, 'rest' | 'graphql'> => ({
  rest: () => ({ method: 'GET', path: '/predictions/imminent', query: { days_ahead: daysAhead, min_probability: minProbability } }),
  graphql: () => ({ query: IMMINENT, variables: { daysAhead, minProbability } }),
});

const listWatchlists: Pick<ContractCase, 'rest' | 'graphql'> = {
  rest: () => ({ method: 'GET', path: '/dashboard/watchlists' }),
  graphql: () => ({ query: WATCHLISTS }),
};

const createWatchlist = (name: string): Pick<ContractCase, 'rest' | 'graphql'> => ({
  rest: () => ({ method: 'POST', path: '/dashboard/watchlists', body: { name } }),
  graphql: () => ({ query: CREATE_WATCHLIST, variables: { input: { name } } }),
});

/** The next midnight UTC after the cases' clock, in Unix seconds: when a daily limit resets. */
const NEXT_MIDNIGHT = String(Date.parse('2026-11-23T00:00:00Z') / 1000);
const refusedBy = (limit: number) => ({ 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': NEXT_MIDNIGHT });

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

const badInput = (name: string, request: Pick<ContractCase, 'rest' | 'graphql'>): ContractCase => ({ name, ...request, expect: { error: 'BAD_USER_INPUT' }, charge: { calls: 1 } });

export const ERROR_CASES: ContractCase<any>[] = [
  // 400: the request is wrong; it still counts as the API call it was
  badInput('refuses a bill id that is not positive', predict(0)),
  badInput('refuses a reference date that is not a calendar date', predict(2900, '2021-02-30')),
  badInput('refuses a batch of more than 100 bills', batch(ids(101))),
  badInput('refuses an empty batch', batch([])),
  badInput('refuses days_ahead beyond 30', imminent(31, 0.5)),
  badInput('refuses days_ahead below 1', imminent(0, 0.5)),
  badInput('refuses min_probability above 1', imminent(7, 1.5)),
  badInput('refuses a bill id beyond 32 bits', predict(2 ** 31)),
  badInput('refuses a reference date before the year 1800', predict(2900, '1799-12-31')),
  badInput('refuses a reference date before the bill was introduced, in REST words on REST', predict(3089, '2021-11-25')),

  // 401 and 403: no user to charge
  ...[
    ['without a key', 'none'],
    ['with a key nobody issued', 'unknown'],
  ].flatMap(([how, credential]) =>
    [
      ['a prediction', predict(2900)],
      ['the watchlists', listWatchlists],
    ].map(
      ([what, request]): ContractCase => ({
        name: `answers UNAUTHENTICATED to ${what as string} asked ${how}`,
        credential: credential as 'none' | 'unknown',
        ...(request as Pick<ContractCase, 'rest' | 'graphql'>),
        expect: { error: 'UNAUTHENTICATED' },
        charge: {},
      }),
    ),
  ),
  {
    name: 'refuses a request with an argument it does not know before asking for a key',
    credential: 'none',
    rest: () => ({ method: 'GET', path: '/predict/2900', query: { as_of: '2021-11-25' } }),
    graphql: () => ({ query: 'query Predict { prediction(billId: 2900, as_of: "2021-11-25") { billId } }' }),
    expect: { error: 'BAD_USER_INPUT' },
    charge: {},
  },
  {
    name: 'answers UNAUTHENTICATED with WWW-Authenticate: Bearer',
    credential: 'none',
    ...predict(2900),
    expect: { error: 'UNAUTHENTICATED' },
    charge: {},
    headers: { 'www-authenticate': expect.stringMatching(/^Bearer\b/) },
  },
  { name: 'answers FORBIDDEN to a Free account’s key', tier: 'free', ...predict(2900), expect: { error: 'FORBIDDEN' }, charge: {} },

  // 404: the bill does not exist, and no prediction was answered
  { name: 'answers NOT_FOUND for a bill that does not exist', ...predict(999999), expect: { error: 'NOT_FOUND' }, charge: { calls: 1 } },
  { name: 'answers NOT_FOUND for a bill that does not exist, as of a reference date', ...predict(999999, '2021-11-25'), expect: { error: 'NOT_FOUND' }, charge: { calls: 1 } },

  // 429: which limit refused it
  {
    name: 'answers RATE_LIMITED once the day’s API calls are used up, charging nothing more',
    arrange: async (t, user) => (await useQuota(t, user, 'calls', 1000), {}),
    ...predict(2900),
    expect: { error: 'RATE_LIMITED' },
    charge: {},
    headers: refusedBy(1000),
  },
  // an API call is charged when it starts and never given back, even when a limit then refuses a field
  {
    name: 'answers RATE_LIMITED to a prediction once the day’s predictions are used up, charging the call',
    arrange: async (t, user) => (await useQuota(t, user, 'predictions', 100), {}),
    ...predict(2900),
    expect: { error: 'RATE_LIMITED' },
    charge: { calls: 1 },
    headers: refusedBy(100),
  },
  {
    name: 'answers RATE_LIMITED to a batch once the day’s batch requests are used up, charging the call',
    arrange: async (t, user) => (await useQuota(t, user, 'batches', 10), {}),
    ...batch([2900]),
    expect: { error: 'RATE_LIMITED' },
    charge: { calls: 1 },
    headers: refusedBy(10),
  },

  // 503: the model is still loading; the call was made
  { name: 'answers SERVICE_UNAVAILABLE to a prediction while the model loads', modelLoading: true, ...predict(2900), expect: { error: 'SERVICE_UNAVAILABLE' }, charge: { calls: 1 } },
  { name: 'answers SERVICE_UNAVAILABLE to a batch while the model loads', modelLoading: true, ...batch([2900]), expect: { error: 'SERVICE_UNAVAILABLE' }, charge: { calls: 1 } },

  // malformed input (issue 9): NUL characters in any string
  badInput('refuses a string holding a NUL byte', createWatchlist('Marriage\u0000law')),
];

export const ERROR_CASES_PENDING_ON_MAIN: PendingCase[] = [];
