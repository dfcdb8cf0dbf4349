import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ModelVersionEntity } from '../../src/db/entities/model-version.entity';
import { OPENAPI_DOCUMENT } from '../../src/doors/rest/openapi/openapi-document';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.userWithKey('pro');
});
afterAll(() => t.close());

const get = (url: string, k: string | null = key) => {
  const req = t.http().get(url);
  return k ? req.set('authorization', `Bearer ${k}`) : req;
};
const post = (url: string, body: unknown, k: string | null = key) => {
  const req = t.http().post(url);
  if (k) req.set('authorization', `Bearer ${k}`);
  return typeof body === 'string' ? req.set('content-type', 'application/json').send(body) : req.send(body as object);
};

describe('before a model is ready', () => {
  it('answers 503 with a detail', async () => {
    const res = await get('/api/v1/predict/2900');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: 'Service unavailable: models loading' });
  });

  afterAll(async () => {
    await t.services.models.train();
  });
});

describe('GET /api/v1/predict/{bill_id}', () => {
  it('answers the specified shape, with bill_id echoed as a string and today as the default date', async () => {
    const res = await get('/api/v1/predict/2900');
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual(['bill_id', 'mode', 'predictions', 'reference_date', 'risk_indicators']);
    expect(body).toMatchObject({ bill_id: '2900', mode: 'nowcast', reference_date: '2021-12-31' });
    expect(Object.keys(body.predictions).sort()).toEqual(['amendment_risk', 'close_vote', 'next_stage_30d', 'royal_assent', 'stall_risk', 'timeline_eta', 'withdrawal_risk']);
    for (const name of ['royal_assent', 'next_stage_30d']) {
      expect(Object.keys(body.predictions[name]).sort()).toEqual(['bill_id', 'prediction', 'probability', 'reference_date']);
      expect(body.predictions[name]).toMatchObject({ bill_id: '2900', prediction: name, reference_date: '2021-12-31' });
    }
    for (const name of ['stall_risk', 'amendment_risk', 'close_vote', 'withdrawal_risk']) {
      expect(body.predictions[name]).toEqual({ bill_id: '2900', prediction: name, probability: expect.any(Number) });
      expect(body.predictions[name].probability).toBeGreaterThanOrEqual(0);
      expect(body.predictions[name].probability).toBeLessThanOrEqual(1);
    }
    expect(body.predictions.timeline_eta).toEqual({ bill_id: '2900', prediction: 'timeline_eta', days: expect.any(Number), reference_date: '2021-12-31' });
    expect(Object.keys(body.risk_indicators).sort()).toEqual(['controversy_score', 'momentum_score', 'stall_risk_level', 'withdrawal_risk_level']);
    const rule = (p: number) => (p < 0.3 ? 'low' : p > 0.7 ? 'high' : 'medium');
    expect(body.risk_indicators.stall_risk_level).toBe(rule(body.predictions.stall_risk.probability));
    expect(body.risk_indicators.withdrawal_risk_level).toBe(rule(body.predictions.withdrawal_risk.probability));
  });

  it('adds explanations (the factors, and what the ETA rests on) with explain=true and nothing else; explain=false is the specified shape', async () => {
    const plain = await get('/api/v1/predict/2900?reference_date=2021-06-30');
    const explained = await get('/api/v1/predict/2900?reference_date=2021-06-30&explain=true');
    expect(explained.status).toBe(200);
    const { explanations, ...rest } = explained.body;
    expect(rest).toEqual(plain.body);
    expect((await get('/api/v1/predict/2900?reference_date=2021-06-30&explain=false')).body).toEqual(plain.body);
    const { timeline_eta: eta, ...factorLists } = explanations;
    // no sitting of its next stage was scheduled on the date: the ETA is the model's
    expect(eta).toMatch(/^estimated by the model from the bill's history: the median wait if the bill moves \(\d+% of its moving within 30 days, if it moves\); a \d+% chance of a next main stage at all, \d+% within 30 days$/);
    expect(Object.keys(factorLists).sort()).toEqual(['next_stage_30d', 'reference', 'royal_assent']);
    expect(explanations.reference.description).toMatch(/^a typical private member's bill \(ballot\) introduced the same day in the Commons/);
    for (const output of ['royal_assent', 'next_stage_30d']) {
      const factors = explanations[output] as { factor: string; effect: number }[];
      expect(factors.length).toBeGreaterThan(0);
      expect(factors.length).toBeLessThanOrEqual(5);
      for (const f of factors) expect(Object.keys(f).sort()).toEqual(['effect', 'factor']);
      const sizes = factors.map((f) => Math.abs(f.effect));
      expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
      // from the reference's probability, the effects add up to the prediction
      const total = factors.reduce((sum, f) => sum + f.effect, explanations.reference[output]);
      expect(Math.abs(total - plain.body.predictions[output].probability)).toBeLessThan(1e-5);
    }
    const graphql = await t.graphql(
      '{ prediction(billId: 2900, referenceDate: "2021-06-30") { explanations { royalAssent { factor effect } nextStage30d { factor effect } reference { description royalAssent nextStage30d } } } }',
      { key },
    );
    const { reference } = explanations;
    expect(graphql.body.data.prediction.explanations).toEqual({
      royalAssent: explanations.royal_assent,
      nextStage30d: explanations.next_stage_30d,
      reference: { description: reference.description, royalAssent: reference.royal_assent, nextStage30d: reference.next_stage_30d },
    });
  });

  it('gives a settled bill no factors, no reference and no ETA to explain: its status settles its probabilities', async () => {
    const enacted = await get('/api/v1/predict/144?reference_date=2021-06-30&explain=true');
    expect(enacted.status).toBe(200);
    expect(enacted.body.explanations).toEqual({ royal_assent: [], next_stage_30d: [], reference: null, timeline_eta: null });
  });

  it('refuses an explain that is not true or false, naming it', async () => {
    for (const value of ['yes', '1', 'TRUE', '']) {
      const res = await get(`/api/v1/predict/2900?explain=${value}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/explain must be true or false/);
    }
    expect((await get('/api/v1/predict/2900?explain=true&explain=false')).status).toBe(400);
  });

  it('agrees with GraphQL, takes X-API-Key, and honours reference_date', async () => {
    const rest = (await t.http().get('/api/v1/predict/2900?reference_date=2021-11-25').set('x-api-key', key)).body;
    const gql = (await t.graphql('{ prediction(billId: 2900, referenceDate: "2021-11-25") { royalAssent nextStage30d timelineEtaDays stallRisk } }', { key })).body.data.prediction;
    expect(rest.reference_date).toBe('2021-11-25');
    expect(rest.predictions.royal_assent.probability).toBe(gql.royalAssent);
    expect(rest.predictions.next_stage_30d.probability).toBe(gql.nextStage30d);
    expect(rest.predictions.timeline_eta.days).toBe(gql.timelineEtaDays);
    expect(rest.predictions.stall_risk.probability).toBe(gql.stallRisk);
  });

  it('sends null days for a settled bill, which will have no next stage', async () => {
    expect((await get('/api/v1/predict/144')).body.predictions.timeline_eta.days).toBeNull();
  });

  it.each([
    ['no key', '/api/v1/predict/2900', null, 401, /API key is required/],
    ['an unknown key', '/api/v1/predict/2900', 'bp_0123abcd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 401, /Invalid or revoked API key/],
    ['an unknown bill', '/api/v1/predict/999999', undefined, 404, /bill 999999 does not exist/],
    ['a bill id that is not an integer', '/api/v1/predict/abc', undefined, 400, /bill_id must be a positive integer/],
    ['a fractional bill id', '/api/v1/predict/1.5', undefined, 400, /bill_id must be a positive integer/],
    ['bill id zero', '/api/v1/predict/0', undefined, 400, /bill_id must be a positive integer/],
    ['a bill id beyond 32 bits', '/api/v1/predict/99999999999', undefined, 400, /bill_id must be a positive integer/],
    ['a malformed reference_date', '/api/v1/predict/2900?reference_date=25-11-2021', undefined, 400, /reference_date must be a calendar date/],
    ['an impossible reference_date', '/api/v1/predict/2900?reference_date=2021-02-30', undefined, 400, /reference_date must be a calendar date/],
    ['reference_date twice', '/api/v1/predict/2900?reference_date=2021-01-01&reference_date=2021-01-02', undefined, 400, /reference_date must be a calendar date/],
    ['a reference_date after today', '/api/v1/predict/2900?reference_date=2022-06-01', undefined, 400, /after today/],
  ])('answers %s with the right status and a detail', async (_name, url, k, status, detail) => {
    const res = await get(url, k === undefined ? key : k);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ detail: expect.stringMatching(detail) });
  });

  it('refuses a Free-tier user with 403', async () => {
    const free = await t.userWithKey('free');
    const res = await get('/api/v1/predict/2900', free);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/free tier/);
  });
});

describe('POST /api/v1/predictions/batch and its alias /predict/batch', () => {
  it.each(['/api/v1/predictions/batch', '/api/v1/predict/batch'])('%s answers the envelope, items in request order', async (url) => {
    const res = await post(url, { bill_ids: [2900, 999999, 144], reference_date: '2021-12-31' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['execution_time_ms', 'results', 'summary']);
    expect(res.body.summary).toEqual({ total: 3, success: 2, errors: 1, blocked: 0 });
    expect(typeof res.body.execution_time_ms).toBe('number');
    const [a, missing, act] = res.body.results;
    expect(res.body.results.map((r: { bill_id: number }) => r.bill_id)).toEqual([2900, 999999, 144]);
    expect(missing).toEqual({ bill_id: 999999, status: 'error', detail: 'bill 999999 does not exist' });
    expect(a.status).toBe('success');
    expect(Object.keys(a.predictions).sort()).toEqual(['amendment_risk', 'close_vote', 'next_stage_30d', 'royal_assent', 'stall_risk', 'timeline_eta', 'withdrawal_risk']);
    expect(a.predictions.royal_assent).toEqual({ probability: expect.any(Number) });
    expect(a.predictions.timeline_eta).toEqual({ days: expect.any(Number) });
    expect(Object.keys(a.risk_indicators).sort()).toEqual(['amendment_risk_level', 'close_vote_level', 'controversy_score', 'momentum_score', 'stall_risk_level', 'withdrawal_risk_level']);
    expect(a.metadata).toEqual({ title: 'Marriage and Civil Partnership (Minimum Age) Bill', chamber: 'Commons', stage: 'second_reading' });
    expect(act.metadata).toMatchObject({ title: 'Welfare Reform Act 2007', stage: 'royal_assent' });
  });

  it('defaults reference_date to today and accepts 100 bills', async () => {
    const res = await post('/api/v1/predictions/batch', { bill_ids: Array.from({ length: 100 }, (_, i) => (i % 2 ? 2900 : 26)) });
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({ total: 100, success: 100 });
  });

  it.each([
    ['no bill_ids', {}, /bill_ids must be an array of 1 to 100/],
    ['an empty bill_ids', { bill_ids: [] }, /bill_ids must be an array of 1 to 100/],
    ['101 bills', { bill_ids: Array.from({ length: 101 }, () => 26) }, /bill_ids must be an array of 1 to 100/],
    ['a string id', { bill_ids: ['26'] }, /bill_ids must hold positive integers/],
    ['a fractional id', { bill_ids: [26.5] }, /bill_ids must hold positive integers/],
    ['a negative id', { bill_ids: [-26] }, /bill_ids must hold positive integers/],
    ['bill_ids not an array', { bill_ids: 26 }, /bill_ids must be an array/],
    ['a bad reference_date', { bill_ids: [26], reference_date: '2021-13-01' }, /reference_date must be a calendar date/],
    ['a JSON array body', [26], /must be a JSON object/],
    ['malformed JSON', '{"bill_ids": [26', /not valid JSON/],
  ])('answers 400 for %s', async (_name, body, detail) => {
    const res = await post('/api/v1/predictions/batch', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.stringMatching(detail) });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await t.http().post('/api/v1/predictions/batch').set('authorization', `Bearer ${key}`).set('content-type', 'text/plain').send('bill_ids=26');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Content-Type must be application/json' });
  });
});

describe('GET /api/v1/predictions/imminent', () => {
  it('lists live bills due within days_ahead at or above min_probability, soonest first, in the specified shape', async () => {
    const res = await get('/api/v1/predictions/imminent?days_ahead=30&min_probability=0');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(res.body.bills.length);
    expect(res.body.count).toBeGreaterThan(0);
    let previous = -Infinity;
    for (const b of res.body.bills) {
      expect(b.timeline_eta_days).toBeLessThanOrEqual(30);
      expect(b.countdown_days).toBeGreaterThanOrEqual(previous);
      previous = b.countdown_days;
      const d = b.countdown_days;
      expect(b.urgency_level).toBe(d <= 1 ? 'critical' : d <= 3 ? 'urgent' : d <= 7 ? 'soon' : 'tracking');
      expect(b.time_bucket).toBe(d < 1 ? 'today' : d <= 7 ? 'week' : d <= 14 ? 'two_weeks' : 'month');
      expect(b.urgency_score).toBeCloseTo(b.next_stage_probability * Math.max(0, 1 - d / 30), 3);
      expect(b.predicted_date).toMatch(/^2022-01-\d\d$|^2021-12-31$/);
      expect(Object.keys(b.risk_indicators)).toHaveLength(6);
    }
  });

  it('applies the defaults (7 days, 0.5) and filters by probability', async () => {
    const defaults = await get('/api/v1/predictions/imminent');
    expect(defaults.status).toBe(200);
    for (const b of defaults.body.bills) {
      expect(b.timeline_eta_days).toBeLessThanOrEqual(7);
      expect(b.next_stage_probability).toBeGreaterThanOrEqual(0.5);
    }
    const none = await get('/api/v1/predictions/imminent?days_ahead=30&min_probability=1');
    expect(none.body).toEqual({ bills: [], count: 0 });
  });

  it.each([
    ['days_ahead=0', /days_ahead must be an integer from 1 to 30/],
    ['days_ahead=31', /days_ahead must be an integer from 1 to 30/],
    ['days_ahead=abc', /days_ahead must be an integer from 1 to 30/],
    ['days_ahead=1.5', /days_ahead must be an integer from 1 to 30/],
    ['min_probability=-0.1', /min_probability must be a number from 0 to 1/],
    ['min_probability=1.1', /min_probability must be a number from 0 to 1/],
    ['min_probability=high', /min_probability must be a number from 0 to 1/],
  ])('answers 400 for %s', async (query, detail) => {
    const res = await get(`/api/v1/predictions/imminent?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.stringMatching(detail) });
  });

  it('gives the same bills over GraphQL', async () => {
    const rest = (await get('/api/v1/predictions/imminent?days_ahead=30&min_probability=0')).body;
    const gql = (await t.graphql('{ imminentBills(daysAhead: 30, minProbability: 0) { count bills { billId urgencyScore } } }', { key })).body.data.imminentBills;
    expect(gql.count).toBe(rest.count);
    expect(gql.bills.map((b: { billId: number }) => b.billId)).toEqual(rest.bills.map((b: { bill_id: number }) => b.bill_id));
  });
});

describe('which model answered (X-Model-* headers, GraphQL model)', () => {
  const modelOf = (res: { headers: Record<string, string> }) => ({
    version: Number(res.headers['x-model-version']),
    trainedThrough: res.headers['x-model-trained-through'],
    outOfSample: res.headers['x-model-out-of-sample'],
  });
  const PAST = '2021-07-01';

  it('today: the serving model, trained through today, out of sample, on predict, batch and imminent', async () => {
    const serving = t.services.models.activeVersion()!;
    const expected = { version: serving.id, trainedThrough: '2021-12-31', outOfSample: 'true' };
    expect(modelOf(await get('/api/v1/predict/2900'))).toEqual(expected);
    expect(modelOf(await get('/api/v1/predict/2900?explain=true'))).toEqual(expected);
    expect(modelOf(await post('/api/v1/predictions/batch', { bill_ids: [2900, 999999] }))).toEqual(expected);
    expect(modelOf(await get('/api/v1/predictions/imminent'))).toEqual(expected);
    const gql = await t.graphql('{ prediction(billId: 2900) { modelVersion model { version trainedThrough outOfSample } } }', { key });
    expect(gql.body.data.prediction).toEqual({ modelVersion: serving.id, model: { version: serving.id, trainedThrough: '2021-12-31', outOfSample: true } });
  });

  it('a past date with no model that old: the serving model, marked in sample; once an older version is stored, that one, out of sample', async () => {
    const serving = t.services.models.activeVersion()!;
    const before = await get(`/api/v1/predict/2900?reference_date=${PAST}`);
    expect(modelOf(before)).toEqual({ version: serving.id, trainedThrough: '2021-12-31', outOfSample: 'false' });
    expect(modelOf(await post('/api/v1/predictions/batch', { bill_ids: [2900], reference_date: PAST }))).toEqual(modelOf(before));

    // a stand-in for a vintage trained through 2021-06-20 (its weights do not matter here, its cutoff does)
    const repository = t.db.dataSource.getRepository(ModelVersionEntity);
    const { featureSchemaVersion, dataFingerprint, seed, artifact } = await repository.findOneByOrFail({ id: serving.id });
    const vintage = await repository.save({ featureSchemaVersion, dataFingerprint, seed, artifact, status: 'accepted', trainingCutoff: '2021-06-20', promotedAt: null, metrics: { vintage: { session_id: 36 } } });
    await t.services.models.followPromotions();

    const after = await get(`/api/v1/predict/2900?reference_date=${PAST}`);
    expect(modelOf(after)).toEqual({ version: vintage.id, trainedThrough: '2021-06-20', outOfSample: 'true' });
    expect(modelOf(await post('/api/v1/predictions/batch', { bill_ids: [2900], reference_date: PAST }))).toEqual(modelOf(after));
    // before its cutoff there is still none: in sample
    expect(modelOf(await get('/api/v1/predict/2900?reference_date=2021-06-18')).outOfSample).toBe('false');
    // today is still the serving model's
    expect(modelOf(await get('/api/v1/predict/2900')).version).toBe(serving.id);
    const chart = await t.graphql('{ bill(id: 2900) { predictionHistory { referenceDate model { version outOfSample } } } }', { key });
    const points = chart.body.data.bill.predictionHistory as { referenceDate: string; model: { version: number; outOfSample: boolean } }[];
    expect(points.length).toBeGreaterThan(1);
    for (const p of points) expect(p.model).toEqual(p.referenceDate >= '2021-06-20' ? { version: p.referenceDate >= '2021-12-31' ? serving.id : vintage.id, outOfSample: true } : { version: serving.id, outOfSample: false });
  });
});

describe('the OpenAPI document', () => {
  it('is served, and is the committed schema/openapi.json (run `npm run schema` after changing it)', async () => {
    const res = await t.http().get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const committed = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'schema', 'openapi.json'), 'utf8'));
    expect(res.body).toEqual(committed);
    expect(committed).toEqual(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT)));
  });

  it('describes exactly the routes the REST router has', () => {
    const documented = Object.entries(OPENAPI_DOCUMENT.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`)).sort();
    expect(documented).toEqual(t.app.restRoutes().sort());
  });
});
