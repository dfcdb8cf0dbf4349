import { parse } from 'csv-parse/sync';
import { makeSnapshot, SAMPLE_BILL_IDS } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

// The CSV exports of issue 33 through REST, read back with a real CSV parser.

const INJECTED = '=HYPERLINK("http://evil.example/","click me")';
const DASHED = '-5 Reasons To Boat Bill';
let t: TestApp;
beforeAll(async () => {
  // two real bills given titles a spreadsheet would run as formulas
  const snapshotDir = makeSnapshot(SAMPLE_BILL_IDS, { edit: (bill) => (bill.billId === 26 ? { ...bill, shortTitle: INJECTED } : bill.billId === 27 ? { ...bill, shortTitle: DASHED } : bill) });
  t = await startTestApp({ trainModel: true, snapshotDir, webhookUrlPolicy: { allowPrivate: false, resolve: async () => ['93.184.215.14'] } });
});
afterAll(() => t.close());

let n = 0;
const user = async (tier: 'free' | 'pilot' | 'pro') => {
  const email = `csv${++n}@example.com`;
  return { email, key: await t.userWithKey(tier, email) };
};
const api = (key: string) => ({
  get: (url: string) => t.http().get(`/api/v1${url}`).set('authorization', `Bearer ${key}`).buffer(true),
  post: (url: string, body?: unknown) => t.http().post(`/api/v1${url}`).set('authorization', `Bearer ${key}`).send(body as object),
});
const predictionsUsed = async (key: string) => (await t.graphql('{ usage { kind used } }', { key })).body.data.usage.find((u: { kind: string }) => u.kind === 'predictions').used as number;
const rowsOf = (text: string) => parse(text, { record_delimiter: '\r\n' }) as string[][];

/** Every record ends with CRLF and no line ends with a bare LF outside a quoted cell. */
function expectCrlf(text: string) {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/"[^"]*"/g, '').split('\r\n').every((line) => !line.includes('\n'))).toBe(true);
}

describe('GET /dashboard/watchlists/{id}/predictions.csv', () => {
  it('has one row per bill whose numbers are exactly those of GET /predict/{bill_id}, and neutralises text a spreadsheet would run', async () => {
    const { key } = await user('pilot');
    const a = api(key);
    const ids = [2900, 26, 27, 144];
    const id = (await a.post('/dashboard/watchlists', { name: '=cmd|"/C calc"!A0', bill_ids: ids })).body.id;
    const res = await a.get(`/dashboard/watchlists/${id}/predictions.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="watchlist-${id}-predictions-2021-12-31.csv"`);
    expect(res.headers.ratelimit).toMatch(/^"predictions";r=\d+/);
    expectCrlf(res.text);
    const [header, ...rows] = rowsOf(res.text);
    expect(header).toEqual(['bill_id', 'title', 'stage', 'royal_assent', 'next_stage_30d', 'timeline_eta_days', 'stall_risk', 'amendment_risk', 'close_vote', 'withdrawal_risk', 'reference_date', 'model_version']);
    // in the watchlist's order, as its JSON answer lists them
    const listed = (await a.get(`/dashboard/watchlists/${id}?predictions=false`)).body.bills.map((b: { bill_id: number }) => b.bill_id);
    expect(rows.map((r) => Number(r[0]))).toEqual(listed);
    expect([...listed].sort()).toEqual([...ids].sort());
    for (const row of rows) {
      const rest = await a.get(`/predict/${row[0]}`);
      const p = rest.body.predictions;
      const expected = [p.royal_assent.probability, p.next_stage_30d.probability, p.timeline_eta.days, p.stall_risk.probability, p.amendment_risk.probability, p.close_vote.probability, p.withdrawal_risk.probability];
      // the same digits as the JSON answer, an empty cell for null
      expect(row.slice(3, 10)).toEqual(expected.map((v) => (v === null ? '' : JSON.stringify(v))));
      expect(row[10]).toBe(rest.body.reference_date);
      expect(row[11]).toBe(rest.headers['x-model-version']);
    }
    expect(rows.find((r) => r[0] === '2900')!.slice(1, 3)).toEqual(['Marriage and Civil Partnership (Minimum Age) Bill', 'second_reading']);
    // the formula and the dash arrive as text, behind a quote mark
    expect(rows.find((r) => r[0] === '26')![1]).toBe(`'${INJECTED}`);
    expect(rows.find((r) => r[0] === '27')![1]).toBe(`'${DASHED}`);
    expect(rows.find((r) => r[0] === '144')![5]).toBe('');
  });

  it('charges one prediction per bill, as reading the watchlist does, and answers for a past reference date', async () => {
    const { key } = await user('pilot');
    const a = api(key);
    const id = (await a.post('/dashboard/watchlists', { name: 'Three', bill_ids: [2900, 26, 144] })).body.id;
    const before = await predictionsUsed(key);
    const res = await a.get(`/dashboard/watchlists/${id}/predictions.csv?reference_date=2021-12-01`);
    expect(res.status).toBe(200);
    expect(await predictionsUsed(key)).toBe(before + 3);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBe(100 - before - 3);
    const rows = rowsOf(res.text).slice(1);
    const past = (await a.get('/predict/2900?reference_date=2021-12-01')).body;
    const row = rows.find((r) => r[0] === '2900')!;
    expect(row[3]).toBe(JSON.stringify(past.predictions.royal_assent.probability));
    expect(row[10]).toBe('2021-12-01');

    // the JSON read charges the same
    const atRead = await predictionsUsed(key);
    await a.get(`/dashboard/watchlists/${id}`);
    expect(await predictionsUsed(key)).toBe(atRead + 3);
  });

  it('is all or nothing: past the daily prediction limit it is a 429 that charges none', async () => {
    const { email, key } = await user('pilot');
    const accountId = await t.accountIdOf(email);
    const id = (await api(key).post('/dashboard/watchlists', { name: 'Three', bill_ids: [2900, 26, 144] })).body.id;
    await t.services.quotas.store.take(accountId, '2026-11-22', 'predictions', 98, 100);
    const refused = await api(key).get(`/dashboard/watchlists/${id}/predictions.csv`);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).detail).toMatch(/^Daily prediction limit reached/);
    expect(await predictionsUsed(key)).toBe(98);
  });

  it('answers 404 for another account’s watchlist and 400 for a bad input, charging no prediction', async () => {
    const owner = await user('pilot');
    const other = await user('pro');
    const id = (await api(owner.key).post('/dashboard/watchlists', { name: 'Mine', bill_ids: [2900] })).body.id;
    const theirs = await api(other.key).get(`/dashboard/watchlists/${id}/predictions.csv`);
    expect(theirs.status).toBe(404);
    expect(JSON.parse(theirs.text)).toEqual({ detail: `watchlist ${id} does not exist` });
    const future = await api(owner.key).get(`/dashboard/watchlists/${id}/predictions.csv?reference_date=2022-02-01`);
    expect(future.status).toBe(400);
    expect(JSON.parse(future.text).detail).toMatch(/^reference_date 2022-02-01 is after today/);
    const misspelt = await api(owner.key).get(`/dashboard/watchlists/${id}/predictions.csv?referenceDate=2021-12-01`);
    expect(misspelt.status).toBe(400);
    expect(JSON.parse(misspelt.text).detail).toMatch(/^unknown query parameter referenceDate/);
    expect((await api(owner.key).get('/dashboard/watchlists/abc/predictions.csv')).status).toBe(400);
    expect(await predictionsUsed(owner.key)).toBe(0);
  });

  it('refuses a Free account as the watchlists do', async () => {
    const { key } = await user('free');
    const res = await api(key).get('/dashboard/watchlists/1/predictions.csv');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toEqual({ detail: 'The free tier has no API access: upgrade to pilot or pro' });
  });
});

describe('GET /predict/{bill_id}/history.csv', () => {
  it('is the bill’s chart (GraphQL predictionHistory) as CSV, charged as one prediction', async () => {
    const { key } = await user('pilot');
    const res = await api(key).get('/predict/2900/history.csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="bill-2900-prediction-history.csv"');
    expectCrlf(res.text);
    expect(await predictionsUsed(key)).toBe(1);
    const [header, ...rows] = rowsOf(res.text);
    expect(header).toEqual(['bill_id', 'title', 'reference_date', 'status', 'royal_assent', 'next_stage_30d', 'model_version', 'out_of_sample']);
    const chart = (await t.graphql('{ bill(id: 2900) { predictionHistory { referenceDate status royalAssent nextStage30d model { version outOfSample } } } }', { key })).body.data.bill.predictionHistory;
    expect(rows).toEqual(chart.map((p: any) => ['2900', 'Marriage and Civil Partnership (Minimum Age) Bill', p.referenceDate, p.status.toLowerCase(), String(p.royalAssent), String(p.nextStage30d), String(p.model.version), String(p.model.outOfSample)]));
    expect(rows.length).toBeGreaterThan(2);
    expect((await api(key).get('/predict/999999/history.csv')).status).toBe(404);
  });
});

describe('GET /webhooks/{id}/deliveries.csv', () => {
  it('lists the endpoint’s deliveries, and answers 404 to another account', async () => {
    const { key } = await user('pilot');
    const hook = (await api(key).post('/webhooks', { url: 'https://hook.example.com/in', events: ['bill.stage_changed'] })).body;
    expect((await api(key).post(`/webhooks/${hook.id}/test`)).status).toBe(200);
    const res = await api(key).get(`/webhooks/${hook.id}/deliveries.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expectCrlf(res.text);
    const [header, ...rows] = rowsOf(res.text);
    expect(header).toEqual(['event_id', 'event_type', 'status', 'attempt', 'status_code', 'error', 'duration_ms', 'attempted_at', 'next_attempt_at', 'created_at']);
    const json = (await api(key).get(`/webhooks/${hook.id}/deliveries`)).body.deliveries;
    expect(rows.map((r) => r[0])).toEqual(json.map((d: { event_id: string }) => d.event_id));
    expect(rows[0].slice(1, 3)).toEqual(['webhook.test', json[0].status]);
    expect(await predictionsUsed(key)).toBe(0);
    const other = await user('pilot');
    expect((await api(other.key).get(`/webhooks/${hook.id}/deliveries.csv`)).status).toBe(404);
  });
});
