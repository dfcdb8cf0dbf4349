import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.userWithKey('pilot');
});
afterAll(() => t.close());

describe('bill(id)', () => {
  it('returns a bill with its stage history, sponsors and session', async () => {
    const res = await t.graphql(
      '{ bill(id: 2900) { id title kind originatingHouse outcome introducedDate url introducedSession { name } sponsors { name partyAtIntroduction } stages { stage house date dates } } }',
      { key },
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const bill = res.body.data.bill;
    expect(bill).toMatchObject({
      id: 2900,
      title: 'Marriage and Civil Partnership (Minimum Age) Bill',
      kind: 'PMB_BALLOT',
      originatingHouse: 'COMMONS',
      outcome: 'PENDING',
      introducedSession: { name: '2021-22' },
      url: 'https://bills.parliament.uk/bills/2900',
    });
    expect(bill.stages[0]).toEqual({ stage: 'first_reading', house: 'COMMONS', date: '2021-06-16', dates: ['2021-06-16'] });
    expect(bill.sponsors[0].name).toBe('Mrs Pauline Latham');
  });

  it('returns null for a bill that does not exist', async () => {
    const res = await t.graphql('{ bill(id: 999999) { id } }', { key });
    expect(res.status).toBe(200);
    expect(res.body.data.bill).toBeNull();
  });

  it('returns the Commons divisions linked to a bill', async () => {
    const res = await t.graphql('{ bill(id: 53) { divisions { date ayes noes title } } }', { key });
    expect(res.body.data.bill.divisions).toHaveLength(3);
    expect(res.body.data.bill.divisions[0]).toEqual(expect.objectContaining({ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), ayes: expect.any(Number) }));
  });
});

describe('bills(filter, first, after)', () => {
  const page = (args: string) => t.graphql(`{ bills(${args}) { totalCount edges { cursor node { id kind } } pageInfo { hasNextPage endCursor } } }`, { key });

  it('walks every bill a page at a time, in id order, with no repeats', async () => {
    const seen: number[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const res: any = await page(after ? `first: 3, after: "${after}"` : 'first: 3');
      const connection = res.body.data.bills;
      expect(connection.totalCount).toBe(8);
      seen.push(...connection.edges.map((e: any) => e.node.id));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual([26, 27, 40, 53, 144, 2900, 2950, 3089]);
  });

  it('filters by kind, house, outcome, session and title text', async () => {
    const ids = async (filter: string) => (await page(`filter: ${filter}`)).body.data.bills.edges.map((e: any) => e.node.id);
    expect(await ids('{ kind: GOVERNMENT }')).toEqual([40, 53, 144]);
    expect(await ids('{ outcome: ROYAL_ASSENT }')).toEqual([40, 53, 144]);
    expect(await ids('{ outcome: WITHDRAWN }')).toEqual([2950]);
    expect(await ids('{ originatingHouse: LORDS }')).toEqual([40, 3089]);
    expect(await ids('{ sessionId: 20 }')).toEqual([26, 27, 40, 53]);
    expect(await ids('{ titleContains: "inland WATERWAYS" }')).toEqual([27]);
    expect(await ids('{ titleContains: "%" }')).toEqual([]);
    expect(await ids('{ kind: PMB_TEN_MINUTE_RULE, sessionId: 20 }')).toEqual([26, 27]);
  });

  it('loads stages, sponsors and divisions of a whole page in a constant number of queries', async () => {
    const count = async (first: number) => {
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      const res = await t.graphql(`{ bills(first: ${first}) { nodes { id stages { stage } sponsors { name } divisions { date } introducedSession { name } } } }`, { key });
      expect(res.body.errors).toBeUndefined();
      // only the bill data's queries: quota writes and key checks run on their own schedule
      const calls = spy.mock.calls.filter(([sql]) => /\b(bill|bill_stage|bill_sponsor|division|parliamentary_session)\b/.test(String(sql))).length;
      spy.mockRestore();
      return calls;
    };
    const forTwo = await count(2);
    const forEight = await count(8);
    expect(forEight).toBe(forTwo);
    // the page count, the page, then one batch per relation
    expect(forEight).toBe(6);
  });
});

describe('sessions and serviceStatus', () => {
  it('lists parliamentary sessions', async () => {
    const res = await t.graphql('{ sessions { id name endDate } }', { key });
    expect(res.body.data.sessions).toContainEqual({ id: 36, name: '2021-22', endDate: null });
    expect(res.body.data.sessions).toHaveLength(16);
  });

  it('answers serviceStatus without a key, with the data licence attribution', async () => {
    const res = await t.graphql('{ serviceStatus { today ready pending billCount attribution } }');
    expect(res.status).toBe(200);
    expect(res.body.data.serviceStatus).toEqual({
      today: '2021-12-31',
      // this app has data but no trained model
      ready: false,
      pending: ['models loading'],
      billCount: 8,
      attribution: 'Contains Parliamentary information licensed under the Open Parliament Licence v3.0.',
    });
  });
});

describe('bad input to every argument is a 400 naming it', () => {
  const cases: [string, string, RegExp][] = [
    ['bill id zero', '{ bill(id: 0) { id } }', /id must be a positive integer/],
    ['bill id negative', '{ bill(id: -5) { id } }', /id must be a positive integer/],
    ['bill id not an integer', '{ bill(id: "26") { id } }', /Int cannot represent/],
    ['bill id beyond 32 bits', '{ bill(id: 99999999999) { id } }', /Int cannot represent/],
    ['bill id missing', '{ bill { id } }', /argument "id" of type "Int!" is required/],
    ['first zero', '{ bills(first: 0) { totalCount } }', /first must be between 1 and 100/],
    ['first too large', '{ bills(first: 101) { totalCount } }', /first must be between 1 and 100/],
    ['after not a cursor', '{ bills(after: "garbage") { totalCount } }', /after is not a cursor this API issued/],
    ['after naming an id beyond 32 bits', `{ bills(after: "${Buffer.from('bill:9999999999').toString('base64url')}") { totalCount } }`, /after is not a cursor this API issued/],
    ['after with a loose number', `{ bills(after: "${Buffer.from('bill:1e3').toString('base64url')}") { totalCount } }`, /after is not a cursor this API issued/],
    ['after empty', '{ bills(after: "") { totalCount } }', /after is not a cursor this API issued/],
    ['filter.titleContains with a NUL', '{ bills(filter: { titleContains: "a\\u0000b" }) { totalCount } }', /must not contain NUL/],
    ['after far too long', `{ bills(after: "${'x'.repeat(300)}") { totalCount } }`, /after is not a cursor this API issued/],
    ['filter.sessionId zero', '{ bills(filter: { sessionId: 0 }) { totalCount } }', /filter.sessionId must be a positive integer/],
    ['filter.kind unknown', '{ bills(filter: { kind: SPACESHIP }) { totalCount } }', /Value "SPACESHIP" does not exist in "BillKind" enum/],
    ['filter.originatingHouse unknown', '{ bills(filter: { originatingHouse: SENATE }) { totalCount } }', /does not exist in "House" enum/],
    ['filter.outcome unknown', '{ bills(filter: { outcome: PASSED }) { totalCount } }', /does not exist in "BillOutcome" enum/],
    ['filter.titleContains empty', '{ bills(filter: { titleContains: "" }) { totalCount } }', /titleContains must be 1 to 200 characters/],
    ['filter.titleContains too long', `{ bills(filter: { titleContains: "${'a'.repeat(201)}" }) { totalCount } }`, /titleContains must be 1 to 200 characters/],
    ['unknown field', '{ bill(id: 26) { nonsense } }', /Cannot query field "nonsense"/],
    ['syntax error', '{ bill(id: 26) { id }', /Syntax Error/],
  ];
  it.each(cases)('%s', async (_name, query, message) => {
    const res = await t.graphql(query, { key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(message);
    expect(JSON.stringify(res.body)).not.toMatch(/stacktrace|\.ts:\d+/);
  });

  it.each([
    ['a mutation, which the schema does not have', 'mutation { x }'],
    ['a subscription, which the schema does not have', 'subscription { x }'],
  ])('answers %s as bad input, never an internal error', async (_name, query) => {
    const res = await t.graphql(query, { key });
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('answers a persisted-query request (not supported) as bad input, never an internal error', async () => {
    const res = await t.http().post('/graphql').set('authorization', `Bearer ${key}`).send({ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } });
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('refuses a query that costs too much, and allows a full page with its relations', async () => {
    const page = 'bills(first: 100) { nodes { id title stages { stage dates } sponsors { name } divisions { date } } }';
    const full = await t.graphql(`{ ${page} }`, { key });
    expect(full.status).toBe(200);
    const aliased = Array.from({ length: 50 }, (_, i) => `p${i}: ${page}`).join(' ');
    const res = await t.graphql(`{ ${aliased} }`, { key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringMatching(/over the limit of 5000/) });
  });

  it('refuses a variable of the wrong type', async () => {
    const res = await t.graphql('query ($id: Int!) { bill(id: $id) { id } }', { key, variables: { id: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('answers malformed JSON and a missing query with 400, never 500', async () => {
    const bad = await t.http().post('/graphql').set('content-type', 'application/json').set('authorization', `Bearer ${key}`).send('{"query": ');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ errors: [{ message: 'The request body is not valid JSON', extensions: { code: 'BAD_USER_INPUT' } }] });
    const empty = await t.http().post('/graphql').set('content-type', 'application/json').set('authorization', `Bearer ${key}`).send({});
    expect(empty.status).toBe(400);
  });
});
