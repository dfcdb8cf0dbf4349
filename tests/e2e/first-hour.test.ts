import { readFileSync } from 'node:fs';
import path from 'node:path';
import { trustFor, type TrustTable } from '../../src/model/serve/trust';
import { SAMPLE_BILL_IDS } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * What a developer new to the service reads first: bills told apart by session, newest first;
 * how far to trust a probability, from the model card's own evaluation; the model card and the
 * API guide served as pages.
 */
const ELECTIONS_BILLS = [77, 1024, 1468, 1671, 3020];
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp({ billIds: [...SAMPLE_BILL_IDS, ...ELECTIONS_BILLS], trainModel: true });
  key = await t.userWithKey('pilot');
}, 120_000);
afterAll(() => t.close());

const ids = (res: { body: { data: { bills: { nodes: { id: number }[] } } } }) => res.body.data.bills.nodes.map((b) => b.id);

describe('bills, newest session first', () => {
  const SEARCH = 'query($order: BillOrder, $after: String, $session: Int) { bills(first: 2, order: $order, after: $after, filter: { titleContains: "Elections Bill", sessionId: $session }) { totalCount nodes { id introducedSession { name } } pageInfo { endCursor hasNextPage } } }';

  it('keeps ascending id as the default order', async () => {
    const res = await t.graphql(SEARCH.replace('first: 2', 'first: 10'), { key });
    expect(ids(res)).toEqual([77, 1024, 1468, 1671, 3020]);
  });

  it('orders NEWEST_FIRST by session, newest first, and pages on with the same cursors', async () => {
    const first = await t.graphql(SEARCH, { key, variables: { order: 'NEWEST_FIRST' } });
    expect(first.body.data.bills.nodes).toEqual([
      { id: 3020, introducedSession: { name: '2021-22' } },
      { id: 1671, introducedSession: { name: '2015-16' } },
    ]);
    const second = await t.graphql(SEARCH, { key, variables: { order: 'NEWEST_FIRST', after: first.body.data.bills.pageInfo.endCursor } });
    expect(second.body.errors).toBeUndefined();
    const third = await t.graphql(SEARCH, { key, variables: { order: 'NEWEST_FIRST', after: second.body.data.bills.pageInfo.endCursor } });
    expect([...ids(second), ...ids(third)]).toEqual([1468, 1024, 77]);
    expect(third.body.data.bills.pageInfo.hasNextPage).toBe(false);
  });

  it('narrows to one session, and to none when the session is null (every session)', async () => {
    const res = await t.graphql(SEARCH, { key, variables: { order: 'NEWEST_FIRST', session: 36 } });
    expect(res.body.data.bills).toMatchObject({ totalCount: 1, nodes: [{ id: 3020 }] });
    const every = await t.graphql(SEARCH, { key, variables: { order: 'NEWEST_FIRST', session: null } });
    expect(every.body.data.bills.totalCount).toBe(5);
  });

  it('refuses an order it does not know, naming the argument’s type', async () => {
    const res = await t.graphql(SEARCH, { key, variables: { order: 'OLDEST' } });
    expect(res.body.errors[0].message).toMatch(/Value "OLDEST" does not exist in "BillOrder" enum/);
  });
});

describe('how far to trust a probability', () => {
  const TABLE = JSON.parse(readFileSync(path.resolve(__dirname, '../../docs/model-card/calibration.json'), 'utf8')) as TrustTable;
  const TRUST = 'query($id: Int!) { prediction(billId: $id) { royalAssent nextStage30d status trust { output scope binLower binUpper bills observedRate testSessions } } }';

  it('quotes the model card’s evaluation for a live bill: its kind, its stage (or its kind alone when too few), the tenth its figure is in', async () => {
    // the Elections Bill, a government bill after its Commons committee stage on 2021-12-31
    const { prediction } = (await t.graphql(TRUST, { key, variables: { id: 3020 } })).body.data;
    expect(prediction.status).toBe('LIVE');
    const expected = (output: 'royal_assent' | 'next_stage_30d', p: number) => {
      const trust = trustFor(TABLE, output, 'government', 3, p)!;
      return { output, scope: trust.scope, binLower: trust.cell.lower, binUpper: trust.cell.upper, bills: trust.cell.bills, observedRate: trust.enough ? trust.cell.observedRate : null, testSessions: ['2017-19', '2019', '2019-21'] };
    };
    expect(prediction.trust).toEqual([expected('royal_assent', prediction.royalAssent), expected('next_stage_30d', prediction.nextStage30d)]);
  });

  it('has nothing to quote for a settled bill, whose figures follow from its status', async () => {
    const { prediction } = (await t.graphql(TRUST, { key, variables: { id: 1671 } })).body.data;
    expect(prediction).toMatchObject({ status: 'FELL', trust: [] });
  });
});

describe('the docs as pages', () => {
  it('serves the API guide with GitHub’s heading anchors, the webhook receiver section among them, and no script', async () => {
    const res = await t.http().get('/docs/api-watchlists');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.text).toContain('<h3 id="what-a-delivery-looks-like">What a delivery looks like</h3>');
    expect(res.text).toContain('webhook-signature');
    expect(res.text).not.toMatch(/<script/i);
    // a link to another served doc goes to its page; one to a file only in the repository names it
    expect(res.text).toContain('href="/docs/model-card"');
    expect(res.text).toContain('href="/docs/api-events#events"');
    expect(res.text).not.toMatch(/href="[^"]*operations\.md/);
  });

  it('links every page of the API guide to every other, from its index and from each page', async () => {
    const pages = ['api', 'api-predictions', 'api-watchlists', 'api-events', 'api-channels', 'api-graphql', 'api-track-record'];
    for (const name of pages) {
      const res = await t.http().get(`/docs/${name}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<a href="/docs/${name}" aria-current="page">`);
      for (const other of pages) expect(res.text).toContain(`href="/docs/${other}"`);
      expect(res.text).not.toMatch(/href="[^"]*api[-a-z]*\.md/);
    }
    // the index holds what every page relies on, and links the sections moved to their pages
    const index = (await t.http().get('/docs/api')).text;
    expect(index).toContain('<h2 id="authentication">Authentication</h2>');
    expect(index).toContain('href="/docs/api-graphql#query-limits"');
  });

  it('serves the model card with its reliability diagrams', async () => {
    const res = await t.http().get('/docs/model-card');
    expect(res.text).toContain('<h2 id="royal-assent-reliability-by-kind">');
    expect(res.text).toContain('src="model-card/reliability-royal-assent-government.svg"');
    const svg = await t.http().get('/docs/model-card/reliability-royal-assent-government.svg');
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((await t.http().get('/docs/model-card/..%2Fapi.md')).status).toBe(404);
  });
});
