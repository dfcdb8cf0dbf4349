import type { TestApp } from '../../support/test-app';
import type { CaseUser, ContractCase, Fixture, PendingCase } from '../doors';
import { aPrediction, aWatchlist, aWatchlistBill, graphqlWatchlist, NOWCAST_SELECTION, restPrediction, WATCHLIST_BILLS_SELECTION, WATCHLIST_SELECTION } from '../shapes';

// Specification 4.5 (watchlists) through both doors; arrange steps work through the services.

const TODAY = '2021-12-31';

const LIST = `query List { watchlists { ${WATCHLIST_SELECTION} } }`;
const READ = `query Read($id: Int!) { watchlist(id: $id) { ${WATCHLIST_SELECTION} bills { billId addedAt bill { title } prediction { ${NOWCAST_SELECTION} lastStage { stage house date } } } } }`;
const CREATE = `mutation Create($input: CreateWatchlistInput!) { createWatchlist(input: $input) { ${WATCHLIST_BILLS_SELECTION} } }`;
const ADD = `mutation Add($id: Int!, $billIds: [Int!]!) { addBillsToWatchlist(id: $id, billIds: $billIds) { ${WATCHLIST_BILLS_SELECTION} } }`;
const REMOVE = `mutation Remove($id: Int!, $billId: Int!) { removeBillFromWatchlist(id: $id, billId: $billId) { ${WATCHLIST_BILLS_SELECTION} } }`;
const DELETE = `mutation Delete($id: Int!) { deleteWatchlist(id: $id) }`;

type WithWatchlist = Fixture & { watchlist: number };

async function watchlistOf(t: TestApp, accountId: number, name: string, billIds: number[] = [], description: string | null = null) {
  return (await t.services.watchlists.create(accountId, { name, description, billIds })).id;
}

/** A watchlist of the case's user holding bills 26 and 2900. */
const ownWatchlist = async (t: TestApp, user: CaseUser): Promise<WithWatchlist> => ({ watchlist: await watchlistOf(t, user.accountId, 'Marriage law', [2900, 26], 'PMBs on marriage') });

let others = 0;
/** A watchlist of another account: the case's user must not learn it exists. */
async function someoneElsesWatchlist(t: TestApp): Promise<WithWatchlist> {
  const email = `contract-other${++others}@example.com`;
  await t.services.accounts.create(email, 'pilot');
  return { watchlist: await watchlistOf(t, await t.accountIdOf(email), 'Theirs', [2900]) };
}

const read = (): Pick<ContractCase<WithWatchlist>, 'rest' | 'graphql' | 'read'> => ({
  rest: (f) => ({ method: 'GET', path: `/dashboard/watchlists/${f.watchlist}` }),
  graphql: (f) => ({ query: READ, variables: { id: f.watchlist } }),
  read: { rest: restWatchlistWithPredictions, graphql: graphqlWatchlistWithPredictions },
});

const addBills = (): Pick<ContractCase<WithWatchlist>, 'rest' | 'graphql' | 'read'> => ({
  rest: (f) => ({ method: 'POST', path: `/dashboard/watchlists/${f.watchlist}/bills`, body: { bill_ids: [144, 3089] } }),
  graphql: (f) => ({ query: ADD, variables: { id: f.watchlist, billIds: [144, 3089] } }),
  read: { graphql: graphqlWatchlist },
});

const removeBill = (): Pick<ContractCase<WithWatchlist>, 'rest' | 'graphql' | 'read'> => ({
  rest: (f) => ({ method: 'DELETE', path: `/dashboard/watchlists/${f.watchlist}/bills/26` }),
  graphql: (f) => ({ query: REMOVE, variables: { id: f.watchlist, billId: 26 } }),
  read: { graphql: graphqlWatchlist },
});

const deleteWatchlist = (): Pick<ContractCase<WithWatchlist>, 'rest' | 'graphql' | 'read'> => ({
  rest: (f) => ({ method: 'DELETE', path: `/dashboard/watchlists/${f.watchlist}` }),
  graphql: (f) => ({ query: DELETE, variables: { id: f.watchlist } }),
  read: { graphql: (data, f) => ({ id: f.watchlist, deleted: data.deleteWatchlist }) },
});

const create = (body: Record<string, unknown>, input = body): Pick<ContractCase, 'rest' | 'graphql' | 'read'> => ({
  rest: () => ({ method: 'POST', path: '/dashboard/watchlists', body }),
  graphql: () => ({ query: CREATE, variables: { input } }),
  read: { graphql: graphqlWatchlist },
});

/**
 * REST watchlist bill → neutral: its `predictions` and `risk_indicators` are those of
 * GET /predict/{id} (issue 9), read by the same reader.
 */
function restWatchlistWithPredictions(body: any) {
  return {
    ...body,
    bills: body.bills.map(({ predictions, riskIndicators, ...bill }: any) => {
      const { mode: _mode, ...prediction } = restPrediction({ billId: String(bill.billId), mode: 'nowcast', referenceDate: predictions.royalAssent.referenceDate, predictions, riskIndicators });
      return { ...bill, prediction };
    }),
  };
}

/** GraphQL watchlist → neutral: where each bill stands now (REST's `current_stage`) is its nowcast's last stage. */
function graphqlWatchlistWithPredictions(data: any) {
  const w = graphqlWatchlist(data);
  return { ...w, bills: w.bills.map(({ prediction: { lastStage, ...prediction }, ...bill }: any) => ({ ...bill, currentStage: lastStage, prediction })) };
}

const { mode: _mode, ...watchlistPrediction } = aPrediction(0, TODAY);
const aWatchlistBillWithPrediction = (billId: number) => ({
  ...aWatchlistBill(billId),
  currentStage: { stage: expect.any(String), house: expect.any(String), date: expect.any(String) },
  prediction: { ...watchlistPrediction, billId },
});

export const WATCHLIST_CASES: ContractCase<any>[] = [
  {
    name: 'lists the caller’s watchlists, oldest first, without predictions',
    arrange: async (t, user) => ({ first: (await ownWatchlist(t, user)).watchlist, second: await watchlistOf(t, user.accountId, 'Empty') }),
    rest: () => ({ method: 'GET', path: '/dashboard/watchlists' }),
    graphql: () => ({ query: LIST }),
    read: { rest: (body) => body.watchlists },
    expect: { ok: (f: Fixture) => [aWatchlist(f.first, 'Marriage law', 2, 'PMBs on marriage'), aWatchlist(f.second, 'Empty', 0)] },
    charge: { calls: 1 },
  },
  {
    name: 'reads an empty watchlist',
    arrange: async (t, user) => ({ watchlist: await watchlistOf(t, user.accountId, 'Empty') }),
    ...read(),
    expect: { ok: (f: WithWatchlist) => ({ ...aWatchlist(f.watchlist, 'Empty', 0), bills: [] }) },
    charge: { calls: 1 },
  },
  {
    name: 'adds bills to a watchlist, charging no prediction (the answer carries none)',
    arrange: ownWatchlist,
    ...addBills(),
    expect: { ok: (f: WithWatchlist) => ({ ...aWatchlist(f.watchlist, 'Marriage law', 4, 'PMBs on marriage'), bills: [26, 2900, 144, 3089].map(aWatchlistBill) }) },
    charge: { calls: 1 },
  },
  {
    name: 'removes a bill from a watchlist, charging no prediction (the answer carries none)',
    arrange: ownWatchlist,
    ...removeBill(),
    expect: { ok: (f: WithWatchlist) => ({ ...aWatchlist(f.watchlist, 'Marriage law', 1, 'PMBs on marriage'), bills: [aWatchlistBill(2900)] }) },
    charge: { calls: 1 },
  },
  {
    name: 'refuses to create a watchlist naming a bill that does not exist',
    ...create({ name: 'Unknown', bill_ids: [2900, 999999] }, { name: 'Unknown', billIds: [2900, 999999] }),
    expect: { error: 'NOT_FOUND' },
    charge: { calls: 1 },
  },
  {
    name: 'refuses a watchlist without a name',
    ...create({ name: '' }),
    expect: { error: 'BAD_USER_INPUT' },
    charge: { calls: 1 },
  },
  {
    name: 'refuses to remove a bill the watchlist does not hold',
    arrange: ownWatchlist,
    rest: (f) => ({ method: 'DELETE', path: `/dashboard/watchlists/${f.watchlist}/bills/144` }),
    graphql: (f) => ({ query: REMOVE, variables: { id: f.watchlist, billId: 144 } }),
    expect: { error: 'NOT_FOUND' },
    charge: { calls: 1 },
  },
  {
    name: 'reads a watchlist with each bill’s prediction, charging one prediction per bill',
    arrange: ownWatchlist,
    ...read(),
    expect: { ok: (f: WithWatchlist) => ({ ...aWatchlist(f.watchlist, 'Marriage law', 2, 'PMBs on marriage'), bills: [26, 2900].map(aWatchlistBillWithPrediction) }) },
    charge: { calls: 1, predictions: 2 },
  },
  {
    name: 'creates a watchlist with bills, charging no prediction',
    ...create({ name: 'New', description: 'two bills', bill_ids: [2900, 26] }, { name: 'New', description: 'two bills', billIds: [2900, 26] }),
    expect: { ok: { ...aWatchlist(expect.any(Number), 'New', 2, 'two bills'), bills: [26, 2900].map(aWatchlistBill) } },
    charge: { calls: 1 },
  },
  {
    name: 'deletes a watchlist',
    arrange: ownWatchlist,
    ...deleteWatchlist(),
    expect: { ok: (f: WithWatchlist) => ({ id: f.watchlist, deleted: true }) },
    charge: { calls: 1 },
  },
  {
    name: 'refuses a watchlist with a field it does not know, charging the call',
    ...create({ name: 'Typo', bills: [2900] }),
    expect: { error: 'BAD_USER_INPUT' },
    charge: { calls: 1 },
  },
  ...(
    [
      ['reads', read()],
      ['adds bills to', addBills()],
      ['removes a bill from', removeBill()],
      ['deletes', deleteWatchlist()],
    ] as const
  ).map(
    ([verb, request]): ContractCase<WithWatchlist> => ({
      name: `answers NOT_FOUND when the caller ${verb} another account’s watchlist`,
      arrange: someoneElsesWatchlist,
      ...request,
      expect: { error: 'NOT_FOUND' },
      charge: { calls: 1 },
    }),
  ),
];

export const WATCHLIST_CASES_PENDING_ON_MAIN: PendingCase[] = [];
