import type { Tier } from '../../../src/db/entities/account.entity';
import type { TestApp } from '../../support/test-app';
import { type CaseUser, type ContractCase, type Fixture, type PendingCase, useQuota } from '../doors';
import { aThreshold, restCheck, THRESHOLD_SELECTION, TRIGGER_SELECTION } from '../shapes';

// Specification 4.4 (alert thresholds, check, history) through both doors, with the tier rules.

const TODAY = '2021-12-31';

const CREATE = `mutation Create($input: CreateAlertThresholdInput!) { createAlertThreshold(input: $input) { ${THRESHOLD_SELECTION} } }`;
const LIST = `query List { alertThresholds { ${THRESHOLD_SELECTION} } }`;
const DELETE = `mutation Delete($id: Int!) { deleteAlertThreshold(id: $id) }`;
const CHECK = `mutation Check { checkAlerts { checkedAt thresholdsChecked billsChecked billsBlocked triggered { ${TRIGGER_SELECTION} } } }`;
const HISTORY = `query History { alertHistory { totalCount } }`;

/** A threshold as the specification's request (2.7) states it, in lower case as on REST. */
interface ThresholdSpec {
  billId?: number | null;
  alertType: string;
  thresholdValue: number;
  comparison?: string;
}

type WithWatchlist = Fixture & { watchlist: number };

/** A watchlist of the user holding bills 26 and 2900, with `specs` thresholds on it. */
async function watchlistWith(t: TestApp, user: CaseUser, specs: ThresholdSpec[] = []): Promise<Fixture & { watchlist: number; thresholds: number[] }> {
  const watchlist = (await t.services.watchlists.create(user.accountId, { name: 'Alerts', billIds: [2900, 26] })).id;
  const thresholds = [];
  for (const spec of specs) thresholds.push((await t.services.alerts.create(user.accountId, user.tier, { watchlistId: watchlist, ...spec })).id);
  return { watchlist, thresholds } as never;
}

const probabilities = (n: number): ThresholdSpec[] => Array.from({ length: n }, (_, i) => ({ alertType: 'probability', thresholdValue: i / 10 }));

let others = 0;
/** Another account's watchlist with one threshold: the case's user must not learn they exist. */
async function someoneElses(t: TestApp): Promise<Fixture> {
  const email = `contract-thresholds${++others}@example.com`;
  await t.services.accounts.create(email, 'pilot');
  const user: CaseUser = { email, key: '', accountId: await t.accountIdOf(email), tier: 'pilot' as Tier };
  const { watchlist, thresholds } = await watchlistWith(t, user, probabilities(1));
  return { watchlist, threshold: thresholds[0] };
}

/** Creating `spec` on the fixture's watchlist, spelt for each door. */
const create = (spec: ThresholdSpec, path = '/predictions/alerts/thresholds'): Pick<ContractCase<WithWatchlist>, 'rest' | 'graphql'> => ({
  rest: (f) => ({
    method: 'POST',
    path,
    body: { watchlist_id: f.watchlist, bill_id: spec.billId ?? null, alert_type: spec.alertType, threshold_value: spec.thresholdValue, ...(spec.comparison ? { comparison: spec.comparison } : {}) },
  }),
  graphql: (f) => ({
    query: CREATE,
    variables: {
      input: { watchlistId: f.watchlist, billId: spec.billId ?? null, alertType: spec.alertType.toUpperCase(), thresholdValue: spec.thresholdValue, ...(spec.comparison ? { comparison: spec.comparison.toUpperCase() } : {}) },
    },
  }),
});

const list = (prefix = '/predictions'): Pick<ContractCase, 'rest' | 'graphql' | 'read'> => ({
  rest: () => ({ method: 'GET', path: `${prefix}/alerts/thresholds` }),
  graphql: () => ({ query: LIST }),
  read: { rest: (body) => body.thresholds },
});

const remove = (prefix = '/predictions'): Pick<ContractCase<Fixture>, 'rest' | 'graphql' | 'read'> => ({
  rest: (f) => ({ method: 'DELETE', path: `${prefix}/alerts/thresholds/${f.threshold}` }),
  graphql: (f) => ({ query: DELETE, variables: { id: f.threshold } }),
  read: { graphql: (data, f) => ({ id: f.threshold, deleted: data.deleteAlertThreshold }) },
});

const check = (prefix = '/predictions'): Pick<ContractCase, 'rest' | 'graphql' | 'read'> => ({
  rest: () => ({ method: 'POST', path: `${prefix}/alerts/check` }),
  graphql: () => ({ query: CHECK }),
  read: { rest: restCheck },
});

const TIMELINE_ON_2900: ThresholdSpec = { billId: 2900, alertType: 'timeline_eta', thresholdValue: 14, comparison: 'less_than' };
const createdTimeline = (f: WithWatchlist) => aThreshold(expect.any(Number), f.watchlist, { billId: 2900, alertType: 'timeline_eta', thresholdValue: 14, comparison: 'less_than' });

/** A threshold that fires for bill 2900 whatever the model says: Royal Assent probability above 0. */
const FIRES_FOR_2900: ThresholdSpec = { billId: 2900, alertType: 'probability', thresholdValue: 0 };
const checkedOnce = (f: Fixture & { watchlist: number; thresholds: number[] }) => ({
  checkedAt: expect.any(String),
  thresholdsChecked: 1,
  billsChecked: 1,
  billsBlocked: [],
  triggered: [
    {
      id: expect.any(Number),
      thresholdId: f.thresholds[0],
      watchlistId: f.watchlist,
      watchlistName: 'Alerts',
      billId: 2900,
      alertType: 'probability',
      comparison: 'greater_than',
      thresholdValue: 0,
      valueSeen: expect.any(Number),
      referenceDate: TODAY,
      triggeredAt: expect.any(String),
      source: 'manual',
    },
  ],
});

/** A Pro account's watchlist with a trend threshold and six that fire for bill 2900, then the account is downgraded to Pilot. */
async function downgradedWithSeven(t: TestApp, user: CaseUser) {
  const f = await watchlistWith(t, user, [{ alertType: 'trend', thresholdValue: 0.1 }, ...Array.from({ length: 6 }, () => FIRES_FOR_2900)]);
  await t.services.accounts.setTier(user.email, 'pilot');
  return f;
}

const READ_CHECK_AND_TIER_CASES: ContractCase<any>[] = [
  {
    name: 'lists the caller’s thresholds in creation order, comparison defaulted by type',
    arrange: (t, user) => watchlistWith(t, user, [TIMELINE_ON_2900, { alertType: 'stall_risk', thresholdValue: 0.7 }]),
    ...list(),
    expect: {
      ok: (f: Fixture & { watchlist: number; thresholds: number[] }) => [
        aThreshold(f.thresholds[0], f.watchlist, { billId: 2900, alertType: 'timeline_eta', thresholdValue: 14, comparison: 'less_than' }),
        aThreshold(f.thresholds[1], f.watchlist, { alertType: 'stall_risk', thresholdValue: 0.7, comparison: 'greater_than' }),
      ],
    },
    charge: { calls: 1 },
  },
  {
    name: 'checks the caller’s thresholds and reports what fired, charging one prediction per bill evaluated',
    arrange: (t, user) => watchlistWith(t, user, [FIRES_FOR_2900]),
    ...check(),
    expect: { ok: checkedOnce },
    charge: { calls: 1, predictions: 1 },
  },
  {
    name: 'reports the bills a check could not evaluate once the day’s predictions are used up, charging none',
    arrange: async (t, user) => {
      const f = await watchlistWith(t, user, [FIRES_FOR_2900]);
      await useQuota(t, user, 'predictions', 100);
      return f;
    },
    ...check(),
    expect: { ok: { checkedAt: expect.any(String), thresholdsChecked: 1, billsChecked: 0, billsBlocked: [2900], triggered: [] } },
    charge: { calls: 1 },
  },
  {
    name: 'keeps the thresholds a downgrade from Pro stops, shown inactive with the reason',
    tier: 'pro',
    arrange: downgradedWithSeven,
    ...list(),
    expect: {
      ok: (f: Fixture & { watchlist: number; thresholds: number[] }) => [
        { ...aThreshold(f.thresholds[0], f.watchlist, { alertType: 'trend', thresholdValue: 0.1, comparison: 'greater_than' }), active: false, inactiveReason: expect.stringMatching(/pro/i) },
        ...f.thresholds.slice(1, 6).map((id) => aThreshold(id, f.watchlist, { billId: 2900, alertType: 'probability', thresholdValue: 0, comparison: 'greater_than' })),
        { ...aThreshold(f.thresholds[6], f.watchlist, { billId: 2900, alertType: 'probability', thresholdValue: 0, comparison: 'greater_than' }), active: false, inactiveReason: expect.stringMatching(/5/) },
      ],
    },
    charge: { calls: 1 },
  },
  {
    name: 'fires only the thresholds still active after a downgrade from Pro: the oldest 5 of the watchlist',
    tier: 'pro',
    arrange: downgradedWithSeven,
    ...check(),
    expect: {
      ok: (f: Fixture & { watchlist: number; thresholds: number[] }) => ({
        ...checkedOnce(f),
        thresholdsChecked: expect.any(Number),
        triggered: f.thresholds.slice(1, 6).map((thresholdId) => ({ ...checkedOnce(f).triggered[0], thresholdId })),
      }),
    },
    charge: { calls: 1, predictions: 1 },
  },
  {
    name: 'refuses a sixth threshold on a Pilot watchlist',
    arrange: (t, user) => watchlistWith(t, user, probabilities(5)),
    ...create({ alertType: 'probability', thresholdValue: 0.9 }),
    expect: { error: 'FORBIDDEN' },
    charge: { calls: 1 },
  },
  ...['trend', 'spike'].map(
    (alertType): ContractCase<any> => ({
      name: `refuses a ${alertType} threshold to a Pilot account (Pro only)`,
      arrange: (t, user) => watchlistWith(t, user),
      ...create({ alertType, thresholdValue: 0.1 }),
      expect: { error: 'FORBIDDEN' },
      charge: { calls: 1 },
    }),
  ),
  {
    name: 'refuses a probability threshold outside 0 to 1',
    arrange: (t, user) => watchlistWith(t, user),
    ...create({ alertType: 'probability', thresholdValue: 1.5 }),
    expect: { error: 'BAD_USER_INPUT' },
    charge: { calls: 1 },
  },
  {
    name: 'refuses a threshold on a bill the watchlist does not hold',
    arrange: (t, user) => watchlistWith(t, user),
    ...create({ billId: 144, alertType: 'probability', thresholdValue: 0.5 }),
    expect: { error: 'BAD_USER_INPUT' },
    charge: { calls: 1 },
  },
  {
    name: 'answers NOT_FOUND for a threshold on another account’s watchlist',
    arrange: someoneElses,
    ...create({ alertType: 'probability', thresholdValue: 0.5 }),
    expect: { error: 'NOT_FOUND' },
    charge: { calls: 1 },
  },
  {
    name: 'answers NOT_FOUND when deleting another account’s threshold',
    arrange: someoneElses,
    ...remove(),
    expect: { error: 'NOT_FOUND' },
    charge: { calls: 1 },
  },
  {
    name: 'refuses the alert history to a Pilot account (Pro only)',
    rest: () => ({ method: 'GET', path: '/predictions/alerts/history' }),
    graphql: () => ({ query: HISTORY }),
    expect: { error: 'FORBIDDEN' },
    charge: { calls: 1 },
  },
];

const ownThreshold = async (t: TestApp, user: CaseUser) => {
  const f = await watchlistWith(t, user, [TIMELINE_ON_2900]);
  return { ...f, threshold: f.thresholds[0] };
};
const PREFIXES = ['/predictions', ''];
const under = (prefix: string) => (prefix ? `under ${prefix}/alerts/…` : 'under the /alerts/… alias');

/** Creating, listing, deleting and checking under both prefixes of section 9, with the rules a create enforces. */
const CREATE_AND_DELETE_CASES: ContractCase<any>[] = [
  ...PREFIXES.map(
    (prefix): ContractCase<any> => ({ name: `creates a threshold ${under(prefix)}`, arrange: (t, user) => watchlistWith(t, user), ...create(TIMELINE_ON_2900, `${prefix}/alerts/thresholds`), expect: { ok: createdTimeline }, charge: { calls: 1 } }),
  ),
  {
    name: 'lists the thresholds under the /alerts/… alias',
    arrange: (t, user) => watchlistWith(t, user, [TIMELINE_ON_2900]),
    ...list(''),
    expect: { ok: (f: Fixture & { watchlist: number; thresholds: number[] }) => [aThreshold(f.thresholds[0], f.watchlist, { billId: 2900, alertType: 'timeline_eta', thresholdValue: 14, comparison: 'less_than' })] },
    charge: { calls: 1 },
  },
  ...PREFIXES.map(
    (prefix): ContractCase<any> => ({ name: `deletes a threshold ${under(prefix)}`, arrange: ownThreshold, ...remove(prefix), expect: { ok: (f: Fixture) => ({ id: f.threshold, deleted: true }) }, charge: { calls: 1 } }),
  ),
  { name: 'checks the thresholds under the /alerts/… alias', arrange: (t, user) => watchlistWith(t, user, [FIRES_FOR_2900]), ...check(''), expect: { ok: checkedOnce }, charge: { calls: 1, predictions: 1 } },
  ...['stall_risk', 'amendment_risk', 'close_vote', 'withdrawal_risk'].map(
    (alertType): ContractCase<any> => ({
      name: `refuses less_than on a ${alertType} threshold (a risk alerts when it exceeds the threshold)`,
      arrange: (t, user) => watchlistWith(t, user),
      ...create({ alertType, thresholdValue: 0.5, comparison: 'less_than' }),
      expect: { error: 'BAD_USER_INPUT' },
      charge: { calls: 1 },
    }),
  ),
  ...[
    ['a sixth threshold on a Pro watchlist', probabilities(5), { alertType: 'probability', thresholdValue: 0.9 }],
    ['a trend threshold for a Pro account', [], { alertType: 'trend', thresholdValue: 0.1 }],
    ['a spike threshold for a Pro account', [], { alertType: 'spike', thresholdValue: 0.2 }],
  ].map(
    ([what, existing, spec]): ContractCase<any> => ({
      name: `creates ${what as string}`,
      tier: 'pro',
      arrange: (t, user) => watchlistWith(t, user, existing as ThresholdSpec[]),
      ...create(spec as ThresholdSpec),
      expect: { ok: (f: WithWatchlist) => aThreshold(expect.any(Number), f.watchlist, { ...(spec as ThresholdSpec), billId: null, comparison: 'greater_than' }) },
      charge: { calls: 1 },
    }),
  ),
];

export const THRESHOLD_CASES: ContractCase<any>[] = [...CREATE_AND_DELETE_CASES, ...READ_CHECK_AND_TIER_CASES];

export const THRESHOLD_CASES_PENDING_ON_MAIN: PendingCase[] = [];
