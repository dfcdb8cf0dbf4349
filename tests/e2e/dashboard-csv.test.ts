import * as WEB from '../../web/src/operations';
import { dashboardGql, dashboardUser } from '../support/dashboard-session';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The dashboard's "Download CSV" (issue 33): GraphQL `watchlistPredictionsCsv`, run with the
 * session cookie as one of the dashboard's own documents (the cookie never opens REST), answers
 * the very file REST's predictions.csv answers, charged as the website charges predictions (once
 * a bill a day), and with a key as the API does (one a bill); another account's is NOT_FOUND.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
});
afterAll(() => t.close());

let n = 0;
const predictionsUsed = async (key: string) => (await t.graphql('{ usage { kind used } }', { key })).body.data.usage.find((u: { kind: string }) => u.kind === 'predictions').used as number;
const csvOf = async (cookie: string, id: number) => dashboardGql(t, WEB.WATCHLIST_CSV, { id }, { cookie });

it('answers REST’s file with the cookie, charging each bill once a day as the website does', async () => {
  const { cookie, key } = await dashboardUser(t, `csv-dash${++n}@example.com`);
  const id = (await t.http().post('/api/v1/dashboard/watchlists').set('authorization', `Bearer ${key}`).send({ name: 'Three', bill_ids: [2900, 26, 144] })).body.id;
  const res = await csvOf(cookie, id);
  expect(res.body.errors).toBeUndefined();
  const file = res.body.data.watchlistPredictionsCsv;
  expect(await predictionsUsed(key!)).toBe(3);
  // opening it again the same day costs the website nothing more
  expect((await csvOf(cookie, id)).body.data.watchlistPredictionsCsv).toEqual(file);
  expect(await predictionsUsed(key!)).toBe(3);

  const rest = await t.http().get(`/api/v1/dashboard/watchlists/${id}/predictions.csv`).set('authorization', `Bearer ${key}`).buffer(true);
  expect(rest.status).toBe(200);
  expect(file.csv).toBe(rest.text);
  expect(`attachment; filename="${file.filename}"`).toBe(rest.headers['content-disposition']);
  expect(file.rows).toBe(3);
  expect(file.csv.split('\r\n')[0]).toBe('bill_id,title,stage,royal_assent,next_stage_30d,timeline_eta_days,stall_risk,amendment_risk,close_vote,withdrawal_risk,reference_date,model_version');
});

it('charges one prediction per bill with a key, and answers NOT_FOUND for another account’s watchlist, charging none', async () => {
  const owner = await dashboardUser(t, `csv-dash${++n}@example.com`);
  const other = await dashboardUser(t, `csv-dash${++n}@example.com`);
  const id = (await t.http().post('/api/v1/dashboard/watchlists').set('authorization', `Bearer ${owner.key}`).send({ name: 'Two', bill_ids: [2900, 26] })).body.id;
  const query = 'query($id: Int!) { watchlistPredictionsCsv(id: $id) { rows } }';
  expect((await t.graphql(query, { key: owner.key!, variables: { id } })).body.data.watchlistPredictionsCsv.rows).toBe(2);
  expect((await t.graphql(query, { key: owner.key!, variables: { id } })).body.data.watchlistPredictionsCsv.rows).toBe(2);
  expect(await predictionsUsed(owner.key!)).toBe(4);

  const theirs = await csvOf(other.cookie, id);
  expect(theirs.body.errors[0]).toMatchObject({ message: `watchlist ${id} does not exist`, extensions: { code: 'NOT_FOUND' } });
  expect(await predictionsUsed(other.key!)).toBe(0);
});

it('refuses a Free account as the watchlists do', async () => {
  const free = await dashboardUser(t, `csv-dash${++n}@example.com`, 'free');
  expect((await csvOf(free.cookie, 1)).body.errors[0].extensions.code).toBe('FORBIDDEN');
});
