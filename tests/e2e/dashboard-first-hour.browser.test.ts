import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { trustFor, type TrustTable } from '../../src/model/serve/trust';
import { runAdminCommand } from '../../src/admin/commands/admin-commands';
import { dashboardDirectory } from '../../src/doors/http/dashboard-static';
import { SAMPLE_BILL_IDS } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A developer's first hour in the dashboard, in headless Chromium: bills told apart by session,
 * how far to trust a bill's figure, a chart that reads day before month, and a watchlist that
 * says what is coming. (tests/e2e/dashboard.browser.test.ts has the rest of the pages.)
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts');
const onEmbeddedRun = !process.env.TEST_DATABASE_URL;
const describeInBrowser = onEmbeddedRun ? describe : describe.skip;
const ELECTIONS_BILLS = [77, 1024, 1468, 1671, 3020];
const EMAIL = 'first-hour@example.com';
const PASSWORD = 'a long enough password';
const TABLE = JSON.parse(readFileSync(path.resolve(__dirname, '../../docs/model-card/calibration.json'), 'utf8')) as TrustTable;

let t: TestApp;
let browser: Browser;
let page: Page;
let base: string;

beforeAll(async () => {
  if (!onEmbeddedRun) return;
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not at ${CHROMIUM}: install it with \`apt-get install -y chromium\`, or set CHROMIUM_PATH`);
  if (!dashboardDirectory()) throw new Error('The dashboard is not built: run `npm run build`');
  mkdirSync(ARTIFACTS, { recursive: true });
  t = await startTestApp({ billIds: [...SAMPLE_BILL_IDS, ...ELECTIONS_BILLS], trainModel: true });
  await new Promise<void>((resolve) => t.app.httpServer.listen(0, '127.0.0.1', resolve));
  base = `http://localhost:${(t.app.httpServer.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  const notHere = () => Promise.reject(new Error('not used by this test'));
  const admin = { accounts: t.services.accounts, apiKeys: t.services.apiKeys, sessions: t.services.sessions, dataSource: t.db.dataSource, sync: notHere, train: notHere, replay: notHere };
  await page.goto(`${base}/#/signup`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Log in', level: 1 }).waitFor();
  await runAdminCommand(admin, 'set-tier', { email: EMAIL, tier: 'pilot' });
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Bills', level: 1 }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A table's body rows as the text of their cells. */
const rows = (table: ReturnType<Page['getByRole']>) => table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...(tr as any).cells].map((c: any) => String(c.textContent).trim())));

describeInBrowser('a first hour in the dashboard', () => {
  it('tells look-alike bills apart: session, kind and stage, newest session first, narrowed to a session', async () => {
    await page.getByLabel('Search bills').fill('Elections Bill');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('table', { name: /^5 bills “Elections Bill”, newest session first/ });
    await results.locator('tbody tr').first().waitFor();
    const found = await rows(results);
    expect(found.map((r) => r[0])).toEqual(['Elections Bill #3020', 'European Parliament Elections Bill #1671', 'European Parliament Elections Bill #1468', 'European Parliamentary Elections Bill [HL] #1024', 'Scottish Parliament Elections Bill #77']);
    expect(found.map((r) => r[1])).toEqual(['2021-22', '2015-16', '2014-15', '2012-13', '2006-07']);
    expect(found[0][2]).toBe('Government bill');
    expect(found[0][3]).toMatch(/^[A-Z][a-z ]+ \(\d{1,2} [A-Z][a-z]{2,3} 2021\)$/);
    await page.getByLabel('Session').selectOption({ label: '2015-16' });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const narrowedTable = page.getByRole('table', { name: /^1 bill “Elections Bill” in 2015-16/ });
    await narrowedTable.locator('tbody tr').first().waitFor();
    const narrowed = await rows(narrowedTable);
    expect(narrowed.map((r) => r[0])).toEqual(['European Parliament Elections Bill #1671']);
    await page.screenshot({ path: path.join(ARTIFACTS, 'first-hour-search.png'), fullPage: true });
  });

  it('says beside a bill’s figures how often the model card’s held-out nowcasts like them came true, and links the card', async () => {
    await page.goto(`${base}/#/bills/3020`);
    await page.getByText('chance of Royal Assent').waitFor();
    const nowcast = (await t.services.predictions.nowcasts([3020], '2021-12-31'))[0] as { probabilities: { royal_assent: number } };
    const trust = trustFor(TABLE, 'royal_assent', 'government', 3, nowcast.probabilities.royal_assent)!;
    const range = `${Math.round(trust.cell.lower * 100)}–${Math.round(trust.cell.upper * 100)}%`;
    const line = (await page.getByTestId('trust-royal_assent').textContent())!;
    if (trust.enough) {
      const rate = `${Math.round(trust.cell.observedRate! * 100)}%`;
      const who = trust.scope === 'kind_and_stage' ? 'Government bills at this stage (Committee, Commons)' : 'Government bills at any stage (too few at this one)';
      expect(line).toBe(`${who}: of nowcasts of ${range}, ${rate} came true (${Math.round(trust.cell.bills)} bills of 2017-19, 2019, 2019-21). How far to trust it`);
    } else expect(line).toBe(`Too few government bills had a figure of ${range} in the held-out sessions (2017-19, 2019, 2019-21) to say how often it came true. How far to trust it`);
    expect(await page.getByRole('link', { name: 'the model card' }).getAttribute('href')).toBe('/docs/model-card');
    await page.getByTestId('trust-royal_assent').getByRole('link', { name: 'How far to trust it' }).click();
    await page.getByRole('heading', { name: 'Royal Assent reliability by kind' }).waitFor();
    await page.goBack();
    await page.getByText('chance of Royal Assent').waitFor();
  });

  it('reads the chart’s dates day before month, the UK way', async () => {
    const chart = page.getByTestId('probability-chart');
    await chart.locator('canvas').waitFor();
    const axis = (await chart.getAttribute('data-x-axis'))!;
    // the Elections Bill's life, July to December 2021: month names, never 7/5 or 11/13
    expect(axis).toMatch(/^(\d{1,2} )?[A-Z][a-z]{2,3}( \d{4})?( \| (\d{1,2} )?[A-Z][a-z]{2,3}( \d{4})?)+$/);
    expect(axis).not.toMatch(/\d+\/\d+/);
    await chart.scrollIntoViewIfNeeded();
    const box = (await chart.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
    // the tooltip's date, the legend's first value
    await chart.locator('.u-legend .u-series').first().locator('.u-value').filter({ hasText: /^\d{1,2} [A-Z][a-z]{2,3} 2021$/ }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'first-hour-bill.png'), fullPage: true });
  });

  it('lists a watchlist soonest first with stage, next stage and risks as number and level, and a check that reports them the same way', async () => {
    await page.goto(`${base}/#/watchlists`);
    await page.getByLabel('New watchlist name').fill('Elections');
    await page.getByRole('button', { name: 'Create watchlist' }).click();
    await page.getByRole('heading', { name: 'Elections', level: 1 }).waitFor();
    for (const id of ['2900', '3020']) {
      await page.getByLabel('Search bills to add').fill(id);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('button', { name: /^Add .*Bill$/ }).click();
      await page.getByText('Bill added.').waitFor();
    }
    const table = page.getByRole('table', { name: 'Soonest next stage first' });
    await table.locator('tbody tr').nth(1).waitFor();
    const shown = await rows(table);
    const nowcasts = (await t.services.predictions.nowcasts([2900, 3020], '2021-12-31')) as { billId: number; timelineEtaDays: number; probabilities: { stall_risk: number } }[];
    const soonest = [...nowcasts].sort((a, b) => a.timelineEtaDays - b.timelineEtaDays).map((n) => n.billId);
    expect(shown.map((r) => r[0])).toEqual(soonest.map((id) => (id === 3020 ? 'Elections Bill' : 'Marriage and Civil Partnership (Minimum Age) Bill')));
    const elections = shown.find((r) => r[0] === 'Elections Bill')!;
    expect(elections[1]).toBe('Committee (Commons)');
    expect(elections[2]).toMatch(/^in about \d+(\.\d)? days \(around \d{1,2} [A-Z][a-z]{2,3} 202\d\)$/);
    const stall = nowcasts.find((n) => n.billId === 3020)!.probabilities.stall_risk;
    const level = stall < 0.3 ? 'low' : stall > 0.7 ? 'high' : 'medium';
    expect(elections[5]).toMatch(new RegExp(`^(\\d+%|under 1%|over 99%) \\(${level}\\)$`));

    await page.getByLabel('Alert type').selectOption('STALL_RISK');
    await page.getByLabel('Threshold (0–1)').fill('0.01');
    await page.getByLabel('Bill', { exact: true }).selectOption({ label: 'Elections Bill' });
    await page.getByRole('button', { name: 'Add threshold' }).click();
    const thresholds = page.getByRole('table').filter({ hasText: 'What Pro adds' });
    await thresholds.locator('tbody tr').first().waitFor();
    expect((await rows(thresholds))[0].slice(1, 5)).toEqual(['above 1.0%', 'Elections Bill', 'not yet (Check now checks it)', 'Pro: checked every hour, sent as a crossed-threshold webhook event, kept in the alert history']);
    await page.getByText(/A Pilot threshold fires only when you press “Check now”/).waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(new RegExp(`^Checked 1 thresholds on \\d bills: fired: Stall risk on Elections Bill: ${elections[5].replace(/[()]/g, '\\$&')} \\(threshold 1\\.0%\\)\\.$`)).waitFor();
    expect((await rows(thresholds))[0][3]).toMatch(/ UTC$/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'first-hour-watchlist.png'), fullPage: true });
  });

  it('links the webhooks page’s verification sentence to the API guide’s signature section', async () => {
    await page.goto(`${base}/#/webhooks`);
    await page.getByRole('link', { name: 'the API guide’s signature headers and a receiver that checks them' }).click();
    await page.waitForURL(`${base}/docs/api-watchlists#what-a-delivery-looks-like`);
    await page.getByRole('heading', { name: 'What a delivery looks like' }).waitFor();
    expect(await page.getByText('webhook-signature').count()).toBeGreaterThan(0);
  });
});
