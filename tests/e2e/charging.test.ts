import { HourlyAlertCheck } from '../../src/jobs/hourly-alert-check';
import { FAIR_USE_CEILING } from '../../src/quota/tier-limits';
import { startTestApp, type TestApp } from '../support/test-app';
import { usingPostgres } from '../support/test-database';

// Charging is exact (issue 9): each case through REST and through GraphQL.
const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = '2026-11-22';
const NEXT_MIDNIGHT = String(Math.floor(Date.parse('2026-11-23T00:00:00Z') / 1000));

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
});
afterAll(() => t.close());
beforeEach(() => t.setNow(NOW));

type Kind = 'calls' | 'batches' | 'predictions';
let users = 0;
async function user(tier: 'pilot' | 'pro') {
  const email = `charging${++users}@example.com`;
  const key = await t.userWithKey(tier, email);
  const accountId = await t.accountIdOf(email);
  const limits = { calls: tier === 'pilot' ? 1000 : FAIR_USE_CEILING, batches: tier === 'pilot' ? 10 : 100, predictions: tier === 'pilot' ? 100 : FAIR_USE_CEILING };
  return {
    email,
    key,
    accountId,
    /** units of the day used so far */
    used: async (kind: Kind) => (await t.services.quotas.store.take(accountId, DAY, kind, 0, limits[kind])).used,
    use: (kind: Kind, amount: number) => t.services.quotas.store.take(accountId, DAY, kind, amount, limits[kind]),
    get: (url: string) => t.http().get(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
    post: (url: string, body: object = {}) => t.http().post(`/api/v1${url}`).set('authorization', `Bearer ${key}`).send(body),
    gql: (query: string, variables?: Record<string, unknown>) => t.graphql(query, { key, variables }),
  };
}
type User = Awaited<ReturnType<typeof user>>;

describe('an API call is charged once, when the request starts, and never given back', () => {
  it('REST: a batch refused by the daily batch limit still counted as a call', async () => {
    const u = await user('pilot');
    await u.use('batches', 10);
    expect((await u.post('/predictions/batch', { bill_ids: [26] })).status).toBe(429);
    expect(await u.used('calls')).toBe(1);
  });

  it('GraphQL: a request whose one field was refused still counted, once, however many fields it held', async () => {
    const u = await user('pilot');
    await u.use('batches', 10);
    const res = await u.gql('{ me { id } sessions { id } predictions(billIds: [26]) { summary { total } } }');
    expect(res.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(await u.used('calls')).toBe(1);
  });
});

describe('a prediction is charged only when in the response', () => {
  it('GraphQL: an answer with data null charges none, though some of its fields had computed a prediction', async () => {
    const u = await user('pilot');
    const res = await u.gql('{ a: prediction(billId: 2900) { royalAssent } b: prediction(billId: 999999) { royalAssent } }');
    expect(res.body.data).toBeNull();
    expect(await u.used('predictions')).toBe(0);
    const viaBills = await u.gql('{ bills(first: 3) { nodes { id prediction { royalAssent } } } prediction(billId: 999999) { royalAssent } }');
    expect(viaBills.body.data).toBeNull();
    expect(await u.used('predictions')).toBe(0);
  });

  it('GraphQL: predictions charged equal predictions in the response', async () => {
    const u = await user('pilot');
    const res = await u.gql('{ bills(first: 3) { nodes { id prediction { royalAssent } } } }');
    expect(res.body.data.bills.nodes.filter((n: { prediction: unknown }) => n.prediction)).toHaveLength(3);
    expect(await u.used('predictions')).toBe(3);
  });

  it('REST: a request that fails as a whole (404, 400) charges none', async () => {
    const u = await user('pilot');
    expect((await u.get('/predict/999999')).status).toBe(404);
    expect((await u.get('/predict/2900?reference_date=2021-02-30')).status).toBe(400);
    expect(await u.used('predictions')).toBe(0);
    expect(await u.used('calls')).toBe(2);
  });
});

describe('a bill asked for twice in one request is computed and charged once', () => {
  it('REST: a batch repeating a bill id', async () => {
    const u = await user('pilot');
    const res = await u.post('/predictions/batch', { bill_ids: [2900, 2900, 26] });
    expect(res.body.summary).toEqual({ total: 3, success: 3, errors: 0, blocked: 0 });
    expect(res.body.results[0].predictions).toEqual(res.body.results[1].predictions);
    expect(await u.used('predictions')).toBe(2);
  });

  it('GraphQL: a batch repeating a bill id, and the same bill under two aliases', async () => {
    const u = await user('pilot');
    const res = await u.gql('{ predictions(billIds: [2900, 2900, 26]) { summary { success } } }');
    expect(res.body.data.predictions.summary.success).toBe(3);
    expect(await u.used('predictions')).toBe(2);
    await u.gql('{ a: prediction(billId: 40) { royalAssent } b: prediction(billId: 40) { nextStage30d } }');
    expect(await u.used('predictions')).toBe(3);
  });
});

describe('every path that reaches a prediction charges it as a prediction (issue 21)', () => {
  const IMMINENT_ALL = 'imminentBills(daysAhead: 30, minProbability: 0)';

  it('GraphQL: the imminent list charges nothing; the full prediction nested in it charges one per bill answered', async () => {
    const u = await user('pilot');
    const list = await u.gql(`{ ${IMMINENT_ALL} { count bills { billId billTitle stallRisk riskIndicators { stallRiskLevel } } } }`);
    expect(list.body.data.imminentBills.count).toBeGreaterThan(1);
    expect(await u.used('predictions')).toBe(0);
    await u.use('predictions', 99);
    const nested = await u.gql(`{ ${IMMINENT_ALL} { bills { billId prediction { royalAssent } } } }`);
    const bills = nested.body.data.imminentBills.bills as { prediction: unknown }[];
    expect(bills.filter((b) => b.prediction)).toHaveLength(1);
    expect(bills.filter((b) => b.prediction === null)).toHaveLength(bills.length - 1);
    expect(nested.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(await u.used('predictions')).toBe(100);
  });

  it('GraphQL: a chart (predictionHistory) nested in a list of bills charges one prediction per bill', async () => {
    const u = await user('pilot');
    const res = await u.gql('{ bills(first: 2, filter: { outcome: PENDING }) { nodes { id predictionHistory { royalAssent } } } }');
    expect(res.body.errors).toBeUndefined();
    expect(await u.used('predictions')).toBe(res.body.data.bills.nodes.length);
  });
});

describe('a watchlist created or listed charges no prediction unless predictions are returned', () => {
  it('REST: create and list charge none; the detail, which shows predictions, charges one per bill', async () => {
    const u = await user('pilot');
    const created = await u.post('/dashboard/watchlists', { name: 'mine', bill_ids: [2900, 26] });
    expect(created.body.bill_count).toBe(2);
    expect((await u.get('/dashboard/watchlists')).body.watchlists).toHaveLength(1);
    expect(await u.used('predictions')).toBe(0);
    const detail = await u.get(`/dashboard/watchlists/${created.body.id}`);
    expect(detail.body.bills.every((b: { predictions: unknown }) => b.predictions)).toBe(true);
    expect(await u.used('predictions')).toBe(2);
  });

  it('GraphQL: bills without their prediction charge none; with it, one per bill', async () => {
    const u = await user('pilot');
    const created = await u.gql('mutation { createWatchlist(input: { name: "mine", billIds: [2900, 26] }) { id bills { billId bill { title } } } }');
    expect(created.body.data.createWatchlist.bills).toHaveLength(2);
    await u.gql('{ watchlists { id bills { billId } } }');
    expect(await u.used('predictions')).toBe(0);
    await u.gql('{ watchlists { bills { prediction { royalAssent } } } }');
    expect(await u.used('predictions')).toBe(2);
  });
});

describe('a batch in which every item is blocked charges no batch request', () => {
  it.each(['REST', 'GraphQL'])('%s', async (door) => {
    const u = await user('pilot');
    await u.use('predictions', 100);
    if (door === 'REST') {
      const res = await u.post('/predictions/batch', { bill_ids: [26, 2900] });
      expect(res.body.summary).toEqual({ total: 2, success: 0, errors: 0, blocked: 2 });
    } else {
      const res = await u.gql('{ predictions(billIds: [26, 2900]) { summary { blocked } } }');
      expect(res.body.data.predictions.summary.blocked).toBe(2);
    }
    expect(await u.used('batches')).toBe(0);
  });
});

describe('a 429 says which limit refused it', () => {
  it('REST: the daily prediction limit, its size, 0 left and the day’s reset, in REST words', async () => {
    const u = await user('pilot');
    await u.use('predictions', 100);
    const res = await u.get('/predict/2900');
    expect(res.status).toBe(429);
    expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': NEXT_MIDNIGHT });
    expect(res.body.detail).toMatch(/^Daily prediction limit reached: the pilot tier allows 100 a day/);
  });

  it('GraphQL: the daily API call limit, though the request touched no other', async () => {
    const u = await user('pilot');
    await u.use('calls', 1000);
    const res = await u.gql('{ me { id } }');
    expect(res.status).toBe(429);
    expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': NEXT_MIDNIGHT });
    expect(res.body.errors[0].message).toMatch(/^Daily API call limit reached/);
  });
});

describe('an alert check charges one prediction per bill it evaluates', () => {
  async function watching(u: User, billIds: number[]) {
    const watchlist = (await u.post('/dashboard/watchlists', { name: 'w', bill_ids: billIds })).body;
    expect((await u.post('/predictions/alerts/thresholds', { watchlist_id: watchlist.id, alert_type: 'probability', threshold_value: 0 })).body.id).toEqual(expect.any(Number));
    return watchlist;
  }

  it('REST: past the daily limit the remaining bills are blocked and not evaluated', async () => {
    const u = await user('pilot');
    await watching(u, [2900, 26, 40]);
    await u.use('predictions', 99);
    const res = await u.post('/predictions/alerts/check');
    expect(res.body).toMatchObject({ thresholds_checked: 1, bills_checked: 1, bills_blocked: [26, 40] });
    expect(res.body.triggered.map((tr: { bill_id: number }) => tr.bill_id)).toEqual([2900]);
    expect(await u.used('predictions')).toBe(100);
  });

  it('GraphQL: each bill evaluated is one prediction', async () => {
    const u = await user('pilot');
    await watching(u, [2900, 26]);
    const res = await u.gql('mutation { checkAlerts { billsChecked billsBlocked } }');
    expect(res.body.data.checkAlerts).toEqual({ billsChecked: 2, billsBlocked: [] });
    expect(await u.used('predictions')).toBe(2);
  });

  it('the hourly check: charged to the account, blocked past its limit', async () => {
    const u = await user('pro');
    await watching(u, [2900, 26]);
    await u.use('predictions', FAIR_USE_CEILING - 1);
    const job = new HourlyAlertCheck(t.db.dataSource, t.services.alertEvaluation, t.services.quotas, t.services.logger, { postgres: usingPostgres(), now: () => new Date('2030-01-01T10:00:00Z') });
    const run = await job.runDue();
    expect(run.ran).toBe(true);
    expect(run.blocked).toBeGreaterThanOrEqual(1);
    expect((await t.services.quotas.store.take(u.accountId, '2030-01-01', 'predictions', 0, FAIR_USE_CEILING)).used).toBe(0);
    expect(await u.used('predictions')).toBe(FAIR_USE_CEILING);
  });
});

describe('after a downgrade from Pro', () => {
  it('Pro-only thresholds and those beyond the oldest 5 of a watchlist stop firing, are shown inactive with the reason, and fire again after an upgrade', async () => {
    const u = await user('pro');
    const watchlist = (await u.post('/dashboard/watchlists', { name: 'w', bill_ids: [2900] })).body;
    const create = (body: object) => u.post('/predictions/alerts/thresholds', { watchlist_id: watchlist.id, bill_id: 2900, ...body });
    const trend = (await create({ alert_type: 'trend', threshold_value: 0 })).body.id;
    const probability: number[] = [];
    for (let i = 0; i < 6; i++) probability.push((await create({ alert_type: 'probability', threshold_value: i / 1000 })).body.id);
    await t.services.accounts.setTier(u.email, 'pilot');

    const listed = (await u.get('/predictions/alerts/thresholds')).body.thresholds as { id: number; active: boolean; inactive_reason: string | null }[];
    const byId = new Map(listed.map((th) => [th.id, th]));
    expect(byId.get(trend)).toMatchObject({ active: false, inactive_reason: 'trend alerts need the pro tier' });
    expect(probability.slice(0, 5).map((id) => byId.get(id)!.active)).toEqual([true, true, true, true, true]);
    expect(byId.get(probability[5])).toMatchObject({ active: false, inactive_reason: expect.stringMatching(/allows 5 active alert thresholds per watchlist/) });
    const gqlListed = (await u.gql('{ alertThresholds { id active inactiveReason } }')).body.data.alertThresholds;
    expect(gqlListed.find((th: { id: number }) => th.id === probability[5])).toMatchObject({ active: false, inactiveReason: expect.stringMatching(/oldest 5/) });

    const check = (await u.post('/predictions/alerts/check')).body;
    expect(check.thresholds_checked).toBe(5);
    expect(check.triggered.map((tr: { threshold_id: number }) => tr.threshold_id).sort()).toEqual(probability.slice(0, 5).sort());

    await t.services.accounts.setTier(u.email, 'pro');
    const after = (await u.gql('mutation { checkAlerts { thresholdsChecked triggered { thresholdId } } }')).body.data.checkAlerts;
    expect(after.thresholdsChecked).toBe(7);
    expect(after.triggered.map((tr: { thresholdId: number }) => tr.thresholdId)).toContain(probability[5]);
  });
});
