import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { makeSnapshot, SAMPLE_BILL_IDS } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

// Answers the same for every caller (a bill's prediction, the imminent list) are computed once per
// serving state and kept as JSON text (Gateway.answerShared): still authenticated, limited and
// charged per request, and never served once the model or the data changed.
const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = '2026-11-22';
const IMMINENT = '/predictions/imminent?days_ahead=30&min_probability=0';

let t: TestApp;
let computed: jest.SpyInstance;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
  t.setNow(NOW);
  computed = jest.spyOn(t.services.predictions, 'nowcasts');
});
afterAll(() => t.close());

let users = 0;
async function pilot() {
  const email = `shared${++users}@example.com`;
  const key = await t.userWithKey('pilot', email);
  const accountId = await t.accountIdOf(email);
  return {
    key,
    get: (url: string) => t.http().get(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
    used: async (kind: 'calls' | 'predictions') => (await t.services.quotas.store.take(accountId, DAY, kind, 0, 1_000)).used,
    use: (kind: 'calls' | 'predictions', amount: number) => t.services.quotas.store.take(accountId, DAY, kind, amount, 1_000),
  };
}

describe('a prediction answered from memory', () => {
  it('is the same answer, computed once, and charged as answered to each caller', async () => {
    const [ann, bob] = [await pilot(), await pilot()];
    const first = await ann.get('/predict/2900');
    const calls = computed.mock.calls.length;
    const again = await ann.get('/predict/2900');
    const other = await bob.get('/predict/2900');
    expect([first.status, again.status, other.status]).toEqual([200, 200, 200]);
    expect(again.text).toBe(first.text);
    expect(other.text).toBe(first.text);
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(computed.mock.calls.length).toBe(calls);
    expect([await ann.used('calls'), await ann.used('predictions')]).toEqual([2, 2]);
    expect([await bob.used('calls'), await bob.used('predictions')]).toEqual([1, 1]);
    expect(again.headers['x-ratelimit-remaining']).toBe('98');
  });

  it('is refused past the daily prediction limit with the same 429 as a computed one, charging no prediction', async () => {
    const ann = await pilot();
    expect((await ann.get('/predict/2900')).status).toBe(200);
    await ann.use('predictions', 99);
    const refused = await ann.get('/predict/2900');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Daily prediction limit reached: the pilot tier allows 100 a day/);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-ratelimit-limit']).toBe('100');
    expect(await ann.used('predictions')).toBe(100);
    expect(await ann.used('calls')).toBe(2);
  });

  it('is refused to a revoked key, to a request without a key, and to a Free-tier user', async () => {
    const ann = await pilot();
    expect((await ann.get('/predict/2900')).status).toBe(200);
    await t.services.apiKeys.revoke(ann.key.slice(0, 11));
    expect((await ann.get('/predict/2900')).status).toBe(401);
    expect((await t.http().get('/api/v1/predict/2900')).status).toBe(401);
    const free = await t.userWithKey('free');
    expect((await t.http().get('/api/v1/predict/2900').set('authorization', `Bearer ${free}`)).status).toBe(403);
  });

  it('is kept per reference date, and a failing request is never kept', async () => {
    const ann = await pilot();
    const today = await ann.get('/predict/2900');
    const earlier = await ann.get('/predict/2900?reference_date=2021-07-01');
    expect(earlier.body.reference_date).toBe('2021-07-01');
    expect(today.body.reference_date).toBe('2021-12-31');
    expect((await ann.get('/predict/2900?reference_date=2021-01-01')).status).toBe(400); // before the bill was introduced
    expect((await ann.get('/predict/2900?reference_date=2021-01-01')).status).toBe(400);
    expect((await ann.get('/predict/999999')).status).toBe(404);
    expect((await ann.get('/predict/999999')).status).toBe(404);
    expect(await ann.used('predictions')).toBe(2);
  });
});

describe('the imminent list answered from memory', () => {
  it('charges the call only, as a computed one does', async () => {
    const ann = await pilot();
    const first = await ann.get(IMMINENT);
    const second = await ann.get(IMMINENT);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect([await ann.used('calls'), await ann.used('predictions')]).toEqual([2, 0]);
  });
});

describe('a GraphQL query of shared answers answered from memory', () => {
  const PREDICTION = 'query Nowcast($id: Int!) { prediction(billId: $id) { billId royalAssent nextStage30d riskIndicators { stallRiskLevel } } }';
  const ask = (key: string, query = PREDICTION, id = 2900) => t.graphql(query, { key, variables: { id } });

  it('is the same answer, computed once, and charged as answered to each caller', async () => {
    const [ann, bob] = [await pilot(), await pilot()];
    const first = await ask(ann.key);
    const calls = computed.mock.calls.length;
    const again = await ask(ann.key);
    const other = await ask(bob.key);
    expect([first.status, again.status, other.status]).toEqual([200, 200, 200]);
    expect(first.body.data.prediction.billId).toBe(2900);
    expect(again.text).toBe(first.text);
    expect(other.text).toBe(first.text);
    expect(computed.mock.calls.length).toBe(calls);
    expect([await ann.used('calls'), await ann.used('predictions')]).toEqual([2, 2]);
    expect([await bob.used('calls'), await bob.used('predictions')]).toEqual([1, 1]);
    expect(again.headers['x-ratelimit-remaining']).toBe('98');
    // another bill is another answer
    expect((await ask(ann.key, PREDICTION, 3000)).body.data?.prediction?.billId ?? null).not.toBe(2900);
  });

  it('past the daily prediction limit, answers what a computed one answers, charging no prediction', async () => {
    const ann = await pilot();
    expect((await ask(ann.key)).status).toBe(200);
    await ann.use('predictions', 99);
    const kept = await ask(ann.key);
    // the same fields in another document: nothing kept for it, so it runs
    const computedAnswer = await ask(ann.key, PREDICTION.replace('billId royalAssent', 'royalAssent billId'));
    expect(kept.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect({ ...kept.body, status: kept.status }).toEqual({ ...computedAnswer.body, status: computedAnswer.status });
    expect(kept.headers['x-ratelimit-remaining']).toBe('0');
    expect(await ann.used('predictions')).toBe(100);
  });

  it('is refused without a key as a computed one is', async () => {
    const ann = await pilot();
    expect((await ask(ann.key)).status).toBe(200);
    const anonymous = await t.graphql(PREDICTION, { variables: { id: 2900 } });
    expect(anonymous.body.data).toBeNull();
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('a kept answer is computed again', () => {
  it('when a new model version serves', async () => {
    const ann = await pilot();
    await ann.get('/predict/2900');
    await ann.get(IMMINENT);
    const before = t.services.models.activeVersion()!.id;
    await t.services.models.train();
    expect(t.services.models.activeVersion()!.id).not.toBe(before);
    const calls = computed.mock.calls.length;
    expect((await ann.get('/predict/2900')).status).toBe(200);
    expect(computed.mock.calls.length).toBe(calls + 1);
    expect((await ann.get(IMMINENT)).status).toBe(200);
    expect(computed.mock.calls.length).toBe(calls + 2);
  });

  it('when new data has been synced, and not when a sync found nothing new', async () => {
    const ann = await pilot();
    const kept = await ann.get('/predict/2900');
    await ann.get('/predict/2900');
    let calls = computed.mock.calls.length;
    await ingest(t.db.dataSource, new SnapshotSource(makeSnapshot(SAMPLE_BILL_IDS)));
    expect((await t.services.predictions.checkDataState()).changed).toBe(false);
    expect((await ann.get('/predict/2900')).status).toBe(200);
    expect(computed.mock.calls.length).toBe(calls);

    // another bill's title changed: new data, though no feature of bill 2900 moved
    const other = SAMPLE_BILL_IDS.find((id) => id !== 2900)!;
    await ingest(t.db.dataSource, new SnapshotSource(makeSnapshot(SAMPLE_BILL_IDS, { edit: (bill) => (bill.billId === other ? { ...bill, shortTitle: `${bill.shortTitle} (renamed)` } : bill) })));
    expect((await t.services.predictions.checkDataState()).changed).toBe(true);
    calls = computed.mock.calls.length;
    const fresh = await ann.get('/predict/2900');
    expect(fresh.status).toBe(200);
    expect(computed.mock.calls.length).toBe(calls + 1);
    expect(fresh.body).toEqual(kept.body); // the same facts of this bill, same model: the same numbers, computed again
  });
});
