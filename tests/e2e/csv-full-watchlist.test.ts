import { REAL_SNAPSHOT_DIR } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The CSV of a full Pro watchlist (500 bills) at a past date over GraphQL (issue 33): the same
 * file REST serves, within the query cost limit because the export is alone in its operation,
 * charged as the 500 predictions it holds; two copies in one request, or the export beside another
 * costly field, are still refused.
 */
let t: TestApp;
let key: string;
let watchlistId: number;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true, snapshotDir: REAL_SNAPSHOT_DIR });
  key = await t.userWithKey('pro', 'full-csv@example.com');
  const accountId = await t.accountIdOf('full-csv@example.com');
  const billIds = ((await t.db.dataSource.query(`SELECT id FROM bill WHERE introduced_date <= '2021-06-01' ORDER BY id DESC LIMIT 500`)) as { id: number }[]).map((r) => r.id);
  expect(billIds).toHaveLength(500);
  watchlistId = (await t.services.watchlists.create(accountId, { name: 'Everything', billIds })).id;
}, 300_000);
afterAll(() => t.close());

const CSV = 'query($id: Int!, $date: Date) { watchlistPredictionsCsv(id: $id, referenceDate: $date) { filename csv rows } }';
const predictionsUsed = async () => (await t.graphql('{ usage { kind used } }', { key })).body.data.usage.find((u: { kind: string }) => u.kind === 'predictions').used as number;
const refusal = (res: { body: { errors?: { message: string }[] } }) => res.body.errors?.[0]?.message ?? '';

it('answers the dated file of 500 bills, the same as REST’s, charging 500 predictions', async () => {
  const before = await predictionsUsed();
  const res = await t.graphql(CSV, { key, variables: { id: watchlistId, date: '2021-06-15' } });
  expect(res.body.errors).toBeUndefined();
  const file = res.body.data.watchlistPredictionsCsv;
  expect(file.rows).toBe(500);
  expect(await predictionsUsed()).toBe(before + 500);
  const rest = await t.http().get(`/api/v1/dashboard/watchlists/${watchlistId}/predictions.csv?reference_date=2021-06-15`).set('authorization', `Bearer ${key}`).buffer(true);
  expect(rest.status).toBe(200);
  expect(file.csv).toBe(rest.text);
});

it('still refuses two copies of the export in one request, and the export beside another costly field', async () => {
  const before = await predictionsUsed();
  const twice = `query($id: Int!) { a: watchlistPredictionsCsv(id: $id, referenceDate: "2021-06-15") { rows } b: watchlistPredictionsCsv(id: $id, referenceDate: "2021-07-15") { rows } }`;
  expect(refusal(await t.graphql(twice, { key, variables: { id: watchlistId } }))).toMatch(/^This query would cost \d+, over the limit of 5000/);
  const beside = `query($id: Int!) { watchlistPredictionsCsv(id: $id, referenceDate: "2021-06-15") { rows } watchlists { bills { prediction { royalAssent } } } }`;
  expect(refusal(await t.graphql(beside, { key, variables: { id: watchlistId } }))).toMatch(/^This query would cost \d+, over the limit of 5000/);
  expect(await predictionsUsed()).toBe(before);
});
