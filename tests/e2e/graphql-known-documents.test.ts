import { ApolloServer } from '@apollo/server';
import { TIER_LIMITS } from '../../src/quota/tier-limits';
import { startTestApp, type TestApp } from '../support/test-app';

// A document that comes again is answered by the GraphQL door without Apollo's request pipeline
// (src/doors/graphql-http/known-document-shortcut.ts). A client must not be able to tell: the
// same body, head and charges as Apollo's answer, and every refusal and error as Apollo words it.
const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = '2026-11-22';
const PREDICTION = 'query Nowcast($id: Int!) { prediction(billId: $id) { billId royalAssent riskIndicators { stallRiskLevel } } }';
/** what differs between two answers of the same request by design */
const PER_REQUEST = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'ratelimit', 'connection', 'keep-alive']);

let t: TestApp;
let apolloAnswers: jest.SpyInstance;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
  t.setNow(NOW);
  apolloAnswers = jest.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
});
afterAll(() => t.close());

let users = 0;
async function pilot() {
  const email = `known${++users}@example.com`;
  const key = await t.userWithKey('pilot', email);
  const accountId = await t.accountIdOf(email);
  return { key, calls: async () => (await t.services.quotas.store.take(accountId, DAY, 'calls', 0, 1_000)).used };
}

const post = (body: object, { key, accept }: { key?: string; accept?: string } = {}) => {
  const req = t.http().post('/graphql').set('content-type', 'application/json');
  if (key) req.set('authorization', `Bearer ${key}`);
  if (accept) req.set('accept', accept);
  return req.send(body);
};
const head = (res: { headers: Record<string, string> }) => Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_REQUEST.has(name)));

/** Sends the request `times` times; answers each, and how many of them Apollo's pipeline answered. */
async function sendTimes(times: number, send: () => Promise<{ status: number; text: string; headers: Record<string, string> }>) {
  const before = apolloAnswers.mock.calls.length;
  const answers = [];
  for (let i = 0; i < times; i++) answers.push(await send());
  return { answers, throughApollo: apolloAnswers.mock.calls.length - before };
}

describe('a document that comes again', () => {
  it('is answered without Apollo once Apollo has resolved it twice, with the same body and head', async () => {
    const ann = await pilot();
    const { answers, throughApollo } = await sendTimes(4, () => post({ query: PREDICTION, variables: { id: 2900 } }, { key: ann.key }));
    expect(throughApollo).toBe(2);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(answers[0].text);
      expect(head(answer)).toEqual(head(answers[0]));
    }
    expect(JSON.parse(answers[0].text).data.prediction.billId).toBe(2900);
    expect(answers.map((answer) => Number(answer.headers['x-ratelimit-remaining']))).toEqual([99, 98, 97, 96]);
    expect(await ann.calls()).toBe(4);
  });

  it('gets the media type the Accept header asks for, as Apollo chose it', async () => {
    const ann = await pilot();
    const accept = 'application/graphql-response+json';
    const { answers, throughApollo } = await sendTimes(4, () => post({ query: PREDICTION, variables: { id: 2900 } }, { key: ann.key, accept }));
    expect(throughApollo).toBeLessThan(4);
    for (const answer of answers) expect(answer.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
  });

  it('meets the same errors as through Apollo: variables of the wrong type, a field that needs a key, a name that picks nothing', async () => {
    const ann = await pilot();
    const cases: { variables: object; operationName?: string; key?: string }[] = [
      { variables: { id: 'not a number' }, key: ann.key },
      { variables: { id: 2900 } },
      { variables: { id: 2900 }, operationName: 'Other', key: ann.key },
      { variables: { id: 2900 }, operationName: '', key: ann.key },
    ];
    for (const [i, { variables, operationName, key }] of cases.entries()) {
      // a text of its own per case, so that its first answer is Apollo's
      const query = `${PREDICTION} # case ${i}`;
      const wrong = () => post({ query, variables, ...(operationName === undefined ? {} : { operationName }) }, { key });
      const first = await sendTimes(1, wrong);
      const good = () => post({ query, variables: { id: 2900 } }, { key: ann.key });
      await sendTimes(2, good);
      const known = await sendTimes(1, good);
      const later = await sendTimes(1, wrong);
      // the document was known when the wrong request came
      expect([first.throughApollo, known.throughApollo]).toEqual([1, 0]);
      const [before, after] = [first.answers[0], later.answers[0]];
      expect(before.status).toBeGreaterThanOrEqual(400);
      expect([after.status, after.text]).toEqual([before.status, before.text]);
      expect(head(after)).toEqual(head(before));
    }
  });

  it('is still refused past the daily call limit, with the same 429 as through Apollo', async () => {
    const ann = await pilot();
    const accountId = await t.accountIdOf(`known${users}@example.com`);
    await sendTimes(3, () => post({ query: PREDICTION, variables: { id: 2900 } }, { key: ann.key }));
    const limit = TIER_LIMITS.pilot.calls;
    await t.services.quotas.store.take(accountId, DAY, 'calls', limit - (await ann.calls()), limit);
    const { answers } = await sendTimes(2, () => post({ query: PREDICTION, variables: { id: 2900 } }, { key: ann.key }));
    for (const answer of answers) {
      expect(answer.status).toBe(429);
      expect(answer.text).toBe(answers[0].text);
    }
  });

  it('is not taken for what Apollo reads differently: extensions in the body, or a GET', async () => {
    const ann = await pilot();
    await sendTimes(3, () => post({ query: PREDICTION, variables: { id: 2900 } }, { key: ann.key }));
    const { throughApollo } = await sendTimes(2, () => post({ query: PREDICTION, variables: { id: 2900 }, extensions: {} }, { key: ann.key }));
    expect(throughApollo).toBe(2);
  });
});
