import { startTestApp, type TestApp } from '../support/test-app';

// Malformed input is a 400 (or 413) with a detail on both doors, never a 500.
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.userWithKey('pro');
});
afterAll(() => t.close());

const rest = {
  get: (path: string) => t.http().get(path).set('authorization', `Bearer ${key}`),
  post: (path: string, body: unknown) => t.http().post(path).set('authorization', `Bearer ${key}`).send(body as object),
};
const graphqlRefusal = (res: { status: number; body: { errors?: { message: string; extensions: { code: string } }[] } }) => {
  expect(res.status).toBe(400);
  expect(res.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
  return res.body.errors![0].message;
};
const NUL = 'Text must not contain NUL characters (U+0000)';

describe('the NUL character', () => {
  it('is refused in GraphQL variables and inline arguments', async () => {
    expect(graphqlRefusal(await t.graphql('mutation ($n: String!) { createWatchlist(input: { name: $n }) { id } }', { key, variables: { n: 'a\u0000b' } }))).toBe(NUL);
    expect(graphqlRefusal(await t.graphql('mutation { createWatchlist(input: { name: "x", description: "a\\u0000" }) { id } }', { key }))).toBe('input.description must not contain NUL characters (U+0000)');
  });

  it('is refused in REST bodies and parameters', async () => {
    const body = await rest.post('/api/v1/dashboard/watchlists', { name: 'a\u0000b' });
    expect(body.status).toBe(400);
    expect(body.body).toEqual({ detail: NUL });
    const param = await rest.get('/api/v1/predictions/alerts/history?cursor=%00');
    expect(param.status).toBe(400);
    expect(param.body.detail).toEqual(expect.any(String));
  });
});

describe('dates outside the years 1800 to 9999', () => {
  it('are refused by GraphQL, inline or as variables', async () => {
    expect(graphqlRefusal(await t.graphql('{ prediction(billId: 2900, referenceDate: "1799-12-31") { royalAssent } }', { key }))).toMatch(/Date must be a calendar date from 1800-01-01 to 9999-12-31/);
    expect(graphqlRefusal(await t.graphql('query ($d: Date) { prediction(billId: 2900, referenceDate: $d) { royalAssent } }', { key, variables: { d: '0001-01-01' } }))).toMatch(/from 1800-01-01 to 9999-12-31/);
    expect(graphqlRefusal(await t.graphql('{ alertHistory(filter: { from: "0000-01-01" }) { totalCount } }', { key }))).toMatch(/from 1800-01-01/);
  });

  it('are refused by REST, in query parameters and bodies', async () => {
    for (const res of [
      await rest.get('/api/v1/predict/2900?reference_date=0001-01-01'),
      await rest.get('/api/v1/predictions/alerts/history?from=1799-12-31'),
      await rest.post('/api/v1/predict/batch', { bill_ids: [2900], reference_date: '0001-01-01' }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/must be a calendar date/);
    }
  });
});

describe('integers beyond 32 bits', () => {
  const bigTriggerCursor = Buffer.from('trigger:9999999999').toString('base64url');

  it('are refused as GraphQL ids and cursors', async () => {
    expect(graphqlRefusal(await t.graphql('{ bill(id: 99999999999) { id } }', { key }))).toMatch(/32-bit/);
    expect(graphqlRefusal(await t.graphql(`{ alertHistory(after: "${bigTriggerCursor}") { totalCount } }`, { key }))).toMatch(/not a cursor this API issued/);
    expect(graphqlRefusal(await t.graphql(`{ bills(after: "${Buffer.from('bill:9999999999').toString('base64url')}") { totalCount } }`, { key }))).toMatch(/not a cursor/);
  });

  it('are refused as REST ids and cursors', async () => {
    for (const res of [
      await rest.get('/api/v1/predict/99999999999'),
      await rest.post('/api/v1/predict/batch', { bill_ids: [99999999999] }),
      await rest.get(`/api/v1/predictions/alerts/history?cursor=${bigTriggerCursor}`),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.detail).toEqual(expect.any(String));
    }
  });
});

describe('a path parameter that is not valid percent-encoding', () => {
  it('is a 400 naming the parameter, on a route with one and on one with two', async () => {
    const one = await rest.get('/api/v1/predict/%E0%A4');
    expect(one.status).toBe(400);
    expect(one.body).toEqual({ detail: 'The path parameter bill_id is not valid percent-encoding: %E0%A4' });
    const two = await t.http().delete('/api/v1/dashboard/watchlists/1/bills/%FF').set('authorization', `Bearer ${key}`);
    expect(two.status).toBe(400);
    expect(two.body.detail).toMatch(/^The path parameter \w+ is not valid percent-encoding: %FF$/);
  });
});

describe('a body over 100 KB', () => {
  it('is a 413 with a detail on REST and a PAYLOAD_TOO_LARGE error in GraphQL\'s shape on /graphql', async () => {
    const graphql = await t.http().post('/graphql').set('content-type', 'application/json').send(JSON.stringify({ query: `{ serviceStatus { today } } # ${'x'.repeat(200_000)}` }));
    const batch = await t.http().post('/api/v1/predict/batch').set('authorization', `Bearer ${key}`).set('content-type', 'application/json').send(JSON.stringify({ bill_ids: [2900], pad: 'x'.repeat(200_000) }));
    const detail = 'The request body is larger than the limit of 102400 bytes';
    expect(batch.status).toBe(413);
    expect(batch.body).toEqual({ detail });
    expect(graphql.status).toBe(413);
    expect(graphql.body).toEqual({ errors: [{ message: detail, extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
  });
});
