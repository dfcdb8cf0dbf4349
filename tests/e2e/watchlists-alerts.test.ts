import { HourlyAlertCheck } from '../../src/jobs/hourly-alert-check';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { makeSnapshot, SAMPLE_BILL_IDS } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { usingPostgres } from '../support/test-database';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
});
afterAll(() => t.close());

let n = 0;
const user = async (tier: 'pilot' | 'pro') => {
  const email = `wl${++n}@example.com`;
  return { key: await t.userWithKey(tier, email), accountId: await t.accountIdOf(email) };
};
const api = (key: string) => ({
  get: (url: string) => t.http().get(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
  post: (url: string, body: unknown) => t.http().post(`/api/v1${url}`).set('authorization', `Bearer ${key}`).send(body as object),
  del: (url: string) => t.http().delete(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
});

describe('watchlists', () => {
  it('are at most 100 per account: the 101st is refused with 403 naming the limit, through REST and GraphQL, even when asked for at once', async () => {
    const { key, accountId } = await user('pro');
    const a = api(key);
    for (let i = 1; i <= 98; i++) await t.services.watchlists.create(accountId, { name: `list ${i}` });
    // two at once for the last two places, and a third: exactly one of the three is refused
    const racing = await Promise.all([99, 100, 101].map((i) => a.post('/dashboard/watchlists', { name: `list ${i}` })));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 403]);
    const refused = await a.post('/dashboard/watchlists', { name: 'one more' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Watchlist limit reached: an account may have at most 100 watchlists; delete one first' });
    const viaGraphql = await t.graphql('mutation { createWatchlist(input: { name: "one more" }) { id } }', { key });
    expect(viaGraphql.body.errors[0]).toMatchObject({ message: 'Watchlist limit reached: an account may have at most 100 watchlists; delete one first', extensions: { code: 'FORBIDDEN' } });
    expect((await a.get('/dashboard/watchlists')).body.watchlists).toHaveLength(100);
    // deleting one frees its place
    const [first] = (await a.get('/dashboard/watchlists')).body.watchlists;
    await a.del(`/dashboard/watchlists/${first.id}`);
    expect((await a.post('/dashboard/watchlists', { name: 'one more' })).status).toBe(200);
  });

  it('are created, listed, read with their bills and today’s predictions, changed and deleted', async () => {
    const a = api((await user('pilot')).key);
    const created = await a.post('/dashboard/watchlists', { name: 'Marriage law', description: 'PMBs on marriage', bill_ids: [2900] });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.any(Number), name: 'Marriage law', description: 'PMBs on marriage', bill_count: 1, bills: [{ bill_id: 2900, title: 'Marriage and Civil Partnership (Minimum Age) Bill' }] });
    const id = created.body.id;

    expect((await a.post(`/dashboard/watchlists/${id}/bills`, { bill_ids: [26, 144] })).body.bill_count).toBe(3);
    expect((await a.post(`/dashboard/watchlists/${id}/bills`, { bill_id: 3089 })).body.bill_count).toBe(4);
    const list = await a.get('/dashboard/watchlists');
    expect(list.body.watchlists).toEqual([expect.objectContaining({ id, name: 'Marriage law', bill_count: 4 })]);

    const detail = (await a.get(`/dashboard/watchlists/${id}`)).body;
    const live = detail.bills.find((b: { bill_id: number }) => b.bill_id === 2900);
    expect(live).toMatchObject({ title: expect.any(String), current_stage: { stage: 'second_reading', house: 'Commons' }, predictions: { royal_assent: { probability: expect.any(Number) }, timeline_eta: { days: expect.any(Number) } } });
    expect(detail.bills.find((b: { bill_id: number }) => b.bill_id === 144).predictions).toMatchObject({ royal_assent: { probability: 1 }, timeline_eta: { days: null } });

    const removed = await a.del(`/dashboard/watchlists/${id}/bills/26`);
    expect(removed.body.bill_count).toBe(3);
    expect((await a.del(`/dashboard/watchlists/${id}/bills/26`)).status).toBe(404);
    expect((await a.del(`/dashboard/watchlists/${id}`)).body).toEqual({ id, deleted: true });
    expect((await a.get(`/dashboard/watchlists/${id}`)).status).toBe(404);
  });

  it('are read without their predictions at no prediction’s cost: REST predictions=false, GraphQL without Watchlist.bills.prediction', async () => {
    const { key } = await user('pilot');
    const a = api(key);
    const id = (await a.post('/dashboard/watchlists', { name: 'Five', bill_ids: [2900, 26, 27, 144, 3089] })).body.id;
    const predictionsUsed = async () => (await t.graphql('{ usage { kind used } }', { key })).body.data.usage.find((u: { kind: string }) => u.kind === 'predictions').used;
    expect(await predictionsUsed()).toBe(0);

    const bare = await a.get(`/dashboard/watchlists/${id}?predictions=false`);
    expect(bare.status).toBe(200);
    expect(bare.body.bills).toHaveLength(5);
    for (const bill of bare.body.bills) expect(Object.keys(bill).sort()).toEqual(['added_at', 'bill_id', 'title']);
    // the headers count the API call, and say so: the predictions left are untouched
    expect(bare.headers.ratelimit).toMatch(/^"calls";r=\d+;t=\d+$/);
    const graphql = await t.graphql(`{ watchlist(id: ${id}) { name bills { billId bill { title } } } }`, { key });
    expect(graphql.body.data.watchlist.bills).toHaveLength(5);
    expect(graphql.headers.ratelimit).toMatch(/^"calls";/);
    expect(await predictionsUsed()).toBe(0);

    // the default answer is unchanged, and charges a prediction per bill at each read
    const full = await a.get(`/dashboard/watchlists/${id}?predictions=true`);
    expect(full.body.bills[0]).toMatchObject({ current_stage: expect.any(Object), predictions: expect.any(Object), risk_indicators: expect.any(Object) });
    expect(full.headers['x-ratelimit-remaining']).toBe('95');
    expect(await predictionsUsed()).toBe(5);
    expect((await a.get(`/dashboard/watchlists/${id}?predictions=no`)).body).toEqual({ detail: 'predictions must be true or false' });
  });

  it('answer 404 naming unknown bills, and 400 naming bad fields', async () => {
    const a = api((await user('pilot')).key);
    const unknown = await a.post('/dashboard/watchlists', { name: 'x', bill_ids: [26, 999998, 999999] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'bills 999998, 999999 do not exist' });
    const cases: [unknown, RegExp][] = [
      [{}, /name must be 1 to 100 characters/],
      [{ name: '' }, /name must be 1 to 100 characters/],
      [{ name: 'x'.repeat(101) }, /name must be 1 to 100 characters/],
      [{ name: 'x', bill_ids: ['26'] }, /bill_ids must be a positive integer/],
      [{ name: 'x', description: 5 }, /description must be a string/],
    ];
    for (const [body, detail] of cases) {
      const res = await a.post('/dashboard/watchlists', body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    await a.post('/dashboard/watchlists', { name: 'Same' });
    expect((await a.post('/dashboard/watchlists', { name: 'Same' })).body.detail).toMatch(/already have a watchlist named "Same"/);
  });

  it('belong to their owner: another account gets 404 for every operation', async () => {
    const owner = api((await user('pilot')).key);
    const other = api((await user('pro')).key);
    const id = (await owner.post('/dashboard/watchlists', { name: 'Mine', bill_ids: [2900] })).body.id;
    expect((await other.get(`/dashboard/watchlists/${id}`)).status).toBe(404);
    expect((await other.post(`/dashboard/watchlists/${id}/bills`, { bill_id: 26 })).status).toBe(404);
    expect((await other.del(`/dashboard/watchlists/${id}/bills/2900`)).status).toBe(404);
    expect((await other.del(`/dashboard/watchlists/${id}`)).status).toBe(404);
    expect((await other.post('/predictions/alerts/thresholds', { watchlist_id: id, bill_id: null, alert_type: 'probability', threshold_value: 0.5 })).status).toBe(404);
    expect((await other.get('/dashboard/watchlists')).body.watchlists).toEqual([]);
    expect((await owner.get(`/dashboard/watchlists/${id}`)).status).toBe(200);
  });
});

describe('alert thresholds', () => {
  it('take the specified request shape and answer the stored threshold, on both paths', async () => {
    const a = api((await user('pilot')).key);
    const watchlistId = (await a.post('/dashboard/watchlists', { name: 'T', bill_ids: [2900, 26] })).body.id;
    const res = await a.post('/predictions/alerts/thresholds', { watchlist_id: watchlistId, bill_id: null, alert_type: 'timeline_eta', threshold_value: 14, comparison: 'less_than' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      watchlist_id: watchlistId,
      bill_id: null,
      alert_type: 'timeline_eta',
      threshold_value: 14,
      comparison: 'less_than',
      created_at: expect.any(String),
      last_triggered_at: null,
      armed: true,
      quiet_bill_ids: [],
      active: true,
      inactive_reason: null,
    });
    const alias = await a.post('/alerts/thresholds', { watchlist_id: watchlistId, bill_id: 2900, alert_type: 'stall_risk', threshold_value: 0.7 });
    expect(alias.body).toMatchObject({ bill_id: 2900, comparison: 'greater_than' });
    expect((await a.get('/predictions/alerts/thresholds')).body.thresholds.map((x: { id: number }) => x.id)).toEqual([res.body.id, alias.body.id]);
    expect((await a.del(`/predictions/alerts/thresholds/${alias.body.id}`)).body).toEqual({ id: alias.body.id, deleted: true });
    expect((await a.del(`/predictions/alerts/thresholds/${alias.body.id}`)).status).toBe(404);
  });

  it('validate every field', async () => {
    const a = api((await user('pilot')).key);
    const watchlistId = (await a.post('/dashboard/watchlists', { name: 'V', bill_ids: [2900] })).body.id;
    const base = { watchlist_id: watchlistId, bill_id: null, alert_type: 'probability', threshold_value: 0.5 };
    const cases: [object, RegExp][] = [
      [{ ...base, alert_type: 'mood' }, /alert_type must be one of timeline_eta, probability/],
      [{ ...base, comparison: 'equals' }, /comparison must be one of less_than, greater_than/],
      [{ ...base, threshold_value: 1.5 }, /probability from 0 to 1/],
      [{ ...base, threshold_value: '0.5' }, /threshold_value must be a number/],
      [{ ...base, alert_type: 'timeline_eta', threshold_value: -1 }, /days from 0 to 3650/],
      [{ ...base, bill_id: 26 }, /bill 26 is not on watchlist/],
      [{ ...base, watchlist_id: 'x' }, /watchlist_id must be a positive integer/],
    ];
    for (const [body, detail] of cases) {
      const res = await a.post('/predictions/alerts/thresholds', body);
      expect({ status: res.status, detail: res.body.detail }).toEqual({ status: 400, detail: expect.stringMatching(detail) });
    }
  });

  it('allow Pilot 5 per watchlist and no Pro-only types; Pro neither limit', async () => {
    const pilot = api((await user('pilot')).key);
    const wl = (await pilot.post('/dashboard/watchlists', { name: 'Five', bill_ids: [2900] })).body.id;
    for (let i = 0; i < 5; i++) expect((await pilot.post('/predictions/alerts/thresholds', { watchlist_id: wl, alert_type: 'probability', threshold_value: i / 10 })).status).toBe(200);
    const sixth = await pilot.post('/predictions/alerts/thresholds', { watchlist_id: wl, alert_type: 'probability', threshold_value: 0.9 });
    expect(sixth.status).toBe(403);
    expect(sixth.body.detail).toBe('The pilot tier allows 5 alert thresholds per watchlist; pro has no limit');
    const trend = await pilot.post('/predictions/alerts/thresholds', { watchlist_id: (await pilot.post('/dashboard/watchlists', { name: 'Other' })).body.id, alert_type: 'trend', threshold_value: 0.1 });
    expect(trend.status).toBe(403);
    expect(trend.body.detail).toBe('trend alerts need the pro tier');

    const pro = api((await user('pro')).key);
    const proWl = (await pro.post('/dashboard/watchlists', { name: 'Many', bill_ids: [2900] })).body.id;
    for (let i = 0; i < 6; i++) expect((await pro.post('/predictions/alerts/thresholds', { watchlist_id: proWl, alert_type: 'probability', threshold_value: i / 10 })).status).toBe(200);
    expect((await pro.post('/predictions/alerts/thresholds', { watchlist_id: proWl, alert_type: 'spike', threshold_value: 0.2 })).status).toBe(200);
  });
});

describe('checking', () => {
  it('fires when the condition becomes true, stays quiet while it holds, and re-arms when it ends', async () => {
    const { key } = await user('pro');
    const a = api(key);
    const wl = (await a.post('/dashboard/watchlists', { name: 'Arming', bill_ids: [2900] })).body.id;
    const th = (await a.post('/predictions/alerts/thresholds', { watchlist_id: wl, bill_id: 2900, alert_type: 'timeline_eta', threshold_value: 3650, comparison: 'less_than' })).body;

    const first = await a.post('/predictions/alerts/check', {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ thresholds_checked: 1, bills_checked: 1, count: 1 });
    expect(first.body.triggered[0]).toMatchObject({ threshold_id: th.id, bill_id: 2900, alert_type: 'timeline_eta', threshold_value: 3650, value_seen: expect.any(Number), source: 'manual', watchlist_name: 'Arming' });
    // on the service's day, as the data and the events are (the snapshot's 2021-12-31), not on the real date
    expect(first.body.checked_at).toMatch(/^2021-12-31T/);
    expect(first.body.triggered[0].triggered_at).toMatch(/^2021-12-31T/);
    expect((await a.post('/predictions/alerts/check', {})).body.count).toBe(0);
    expect((await a.get('/predictions/alerts/thresholds')).body.thresholds[0]).toMatchObject({ armed: false, quiet_bill_ids: [2900], last_triggered_at: expect.stringMatching(/^2021-12-31T/) });

    // the bill receives Royal Assent: no next stage, so the condition ends and the threshold re-arms
    const enacted = makeSnapshot(SAMPLE_BILL_IDS, {
      edit: (b) => (b.billId === 2900 ? { ...b, stages: [...b.stages, { ...b.stages[0], seq: 99, billStageId: 990_099, stageId: 11, stage: 'royal_assent', house: 'Unassigned', dates: ['2021-12-30'] }] } : b),
    });
    await ingest(t.db.dataSource, new SnapshotSource(enacted));
    await t.services.predictions.checkDataState();
    expect((await a.post('/predictions/alerts/check', {})).body.count).toBe(0);
    expect((await a.get('/predictions/alerts/thresholds')).body.thresholds[0].armed).toBe(true);

    // back as it was: the condition is true again, and it fires again
    await ingest(t.db.dataSource, new SnapshotSource(makeSnapshot(SAMPLE_BILL_IDS)));
    await t.services.predictions.checkDataState();
    expect((await a.post('/predictions/alerts/check', {})).body.count).toBe(1);
  });

  it('keeps history readable after the watchlist is deleted, with filters, pages and counts (Pro only)', async () => {
    const pro = await user('pro');
    const a = api(pro.key);
    const wl = (await a.post('/dashboard/watchlists', { name: 'History', bill_ids: [2900, 3089] })).body.id;
    await a.post('/predictions/alerts/thresholds', { watchlist_id: wl, bill_id: null, alert_type: 'probability', threshold_value: 0 });
    await a.post('/predictions/alerts/thresholds', { watchlist_id: wl, bill_id: 2900, alert_type: 'withdrawal_risk', threshold_value: 0 });
    expect((await a.post('/predictions/alerts/check', {})).body.count).toBe(3);
    expect((await a.del(`/dashboard/watchlists/${wl}`)).status).toBe(200);
    expect((await a.get('/predictions/alerts/thresholds')).body.thresholds).toEqual([]);

    const all = (await a.get('/predictions/alerts/history')).body;
    expect(all.total).toBe(3);
    expect(all.triggers.map((x: { watchlist_name: string }) => x.watchlist_name)).toEqual(['History', 'History', 'History']);
    expect(all.analytics.by_type).toEqual({ probability: 2, withdrawal_risk: 1 });
    expect(all.analytics.by_bill).toEqual({ '2900': 2, '3089': 1 });
    expect(Object.values(all.analytics.by_day)).toEqual([3]);

    expect((await a.get('/predictions/alerts/history?bill_id=3089')).body.total).toBe(1);
    expect((await a.get('/predictions/alerts/history?alert_type=withdrawal_risk')).body.triggers).toHaveLength(1);
    expect((await a.get('/predictions/alerts/history?from=2000-01-01&to=2000-01-02')).body.total).toBe(0);
    const page1 = (await a.get('/predictions/alerts/history?limit=2')).body;
    expect(page1.triggers).toHaveLength(2);
    const page2 = (await a.get(`/predictions/alerts/history?limit=2&cursor=${page1.next_cursor}`)).body;
    expect(page2).toMatchObject({ next_cursor: null });
    expect([...page1.triggers, ...page2.triggers].map((x: { id: number }) => x.id)).toEqual(all.triggers.map((x: { id: number }) => x.id));
    for (const bad of ['limit=0', 'limit=101', 'alert_type=mood', 'from=yesterday', 'bill_id=x', 'cursor=garbage']) expect((await a.get(`/predictions/alerts/history?${bad}`)).status).toBe(400);

    const pilot = api((await user('pilot')).key);
    const refused = await pilot.get('/predictions/alerts/history');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/pro tier/);
  });

  it('runs for Pro accounts once an hour, on the clock it is given', async () => {
    const pro = await user('pro');
    const pilot = await user('pilot');
    for (const u of [pro, pilot]) {
      const a = api(u.key);
      const wl = (await a.post('/dashboard/watchlists', { name: 'Hourly', bill_ids: [2900] })).body.id;
      await a.post('/predictions/alerts/thresholds', { watchlist_id: wl, bill_id: 2900, alert_type: 'probability', threshold_value: 0 });
    }
    let now = new Date('2026-11-22T10:15:00Z');
    const job = new HourlyAlertCheck(t.db.dataSource, t.services.alertEvaluation, t.services.quotas, t.services.logger, { postgres: usingPostgres(), now: () => now });
    const first = await job.runDue();
    expect(first).toMatchObject({ ran: true, hour: '2026-11-22T10:00:00.000Z' });
    now = new Date('2026-11-22T10:45:00Z');
    expect((await job.runDue()).ran).toBe(false);
    now = new Date('2026-11-22T11:01:00Z');
    expect((await job.runDue()).ran).toBe(true);

    const proHistory = (await api(pro.key).get('/predictions/alerts/history')).body;
    expect(proHistory.triggers).toEqual([expect.objectContaining({ source: 'scheduled', bill_id: 2900, alert_type: 'probability' })]);
    // the Pilot account's thresholds are checked only when it asks
    const pilotCheck = await api(pilot.key).post('/predictions/alerts/check', {});
    expect(pilotCheck.body.count).toBe(1);
  });
});
