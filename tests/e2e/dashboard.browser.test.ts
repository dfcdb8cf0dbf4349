import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { runAdminCommand } from '../../src/admin/commands/admin-commands';
import { dashboardDirectory } from '../../src/doors/http/dashboard-static';
import * as WEB from '../../web/src/operations';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The dashboard in a real browser: Debian's headless Chromium driven by playwright-core, one
 * browser and one server for the whole file. Controls are found by role and accessible name, as
 * a user (or a screen reader) finds them. Screenshots go to test-artifacts/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts');

// The browser's flows do not depend on the database: they run on the embedded run only, keeping CI short
// (the HTTP tests of the same behaviour, tests/e2e/dashboard-accounts.test.ts, run on PostgreSQL too).
const onEmbeddedRun = !process.env.TEST_DATABASE_URL;
const describeInBrowser = onEmbeddedRun ? describe : describe.skip;

let t: TestApp;
let browser: Browser;
let page: Page;
let base: string;
const EMAIL = 'browser-user@example.com';
const PASSWORD = 'a long enough password';
const policyViolations: string[] = [];

beforeAll(async () => {
  if (!onEmbeddedRun) return;
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does), or set CHROMIUM_PATH`);
  if (!dashboardDirectory()) throw new Error('The dashboard is not built: run `npm run build`');
  mkdirSync(ARTIFACTS, { recursive: true });
  // webhook hosts resolve by this table (no DNS in tests): one public name, one private
  const names: Record<string, string[]> = { 'hook.example.com': ['93.184.215.14'], 'intranet.example.com': ['10.1.2.3'] };
  // the default per-address allowance (ANON_RATE_LIMIT), which every dashboard request spends: a
  // person clicking through every page, as this file does, stays within it
  t = await startTestApp({ trainModel: true, anonRateLimit: 120, webhookUrlPolicy: { allowPrivate: false, resolve: async (host) => names[host] ?? Promise.reject(new Error('ENOTFOUND')) } });
  await new Promise<void>((resolve) => t.app.httpServer.listen(0, '127.0.0.1', resolve));
  base = `http://localhost:${(t.app.httpServer.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  page.on('dialog', (dialog) => void dialog.accept());
  // Chromium reports what the pages' Content-Security-Policy blocked on the console
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const predictWith = (key: string) => fetch(`${base}/api/v1/predict/2900`, { headers: { authorization: `Bearer ${key}` } });

describeInBrowser('the dashboard in Chromium', () => {
  it('loads for a signed-out visitor without a console error or a failing request', async () => {
    const visitor = await browser.newContext();
    const first = await visitor.newPage();
    const problems: string[] = [];
    first.on('console', (message) => void (message.type() === 'error' && problems.push(`console: ${message.text()}`)));
    first.on('response', (response) => void (response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`)));
    await first.goto(`${base}/`);
    await first.getByRole('link', { name: 'Sign up' }).first().waitFor();
    // what the predictions are computed from, on every page
    await first.getByText(/Data as of \d{1,2} \w{3} \d{4}, from a snapshot\./).waitFor();
    await first.goto(`${base}/#/account`);
    await first.getByRole('heading', { name: 'Log in', level: 1 }).waitFor();
    await first.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
    await visitor.close();
  });

  it('signs a new user up from the home page, as Free, then logs in', async () => {
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: 'Sign up' }).first().click();
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    // the same answer whether or not the address had an account: it signs no one in
    await page.getByRole('status').filter({ hasText: `${EMAIL} can now log in` }).waitFor();
    await page.getByRole('heading', { name: 'Log in', level: 1 }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Bills', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    for (const name of ['Bills', 'Imminent', 'Watchlists', 'Webhooks', 'Account']) await page.getByRole('navigation').getByRole('link', { name, exact: true }).waitFor();
  });

  it('finds a bill by search and draws its chart: the Free prediction of the day', async () => {
    await page.getByLabel('Search bills').fill('Marriage');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: 'Marriage and Civil Partnership (Minimum Age) Bill' }).click();
    await page.getByText('chance of Royal Assent').waitFor();
    await page.getByRole('table', { name: 'Risks' }).waitFor();
    // beside each headline figure, the typical bill's figure and the factors that move it from there, in plain words
    expect(await page.getByText(/^A typical bill of its kind: \d+(\.\d)?%\. What makes the difference:$/).count()).toBe(2);
    for (const figure of ['chance of Royal Assent', 'chance of the next stage within 30 days']) {
      const reasons = await page.getByRole('list', { name: `Why: ${figure}` }).getByRole('listitem').allTextContents();
      expect(reasons.length).toBeGreaterThan(0);
      for (const reason of reasons) expect(reason).toMatch(/^[▲▼] .+: (raises|lowers) it (under )?\d+(\.\d)? points?$/);
    }
    await page.getByText(/^The typical bill the factors start from: a typical private member's bill \(ballot\) introduced the same day in the Commons/).waitFor();
    const canvas = page.getByTestId('probability-chart').locator('canvas');
    await canvas.waitFor();
    // drawn: the canvas holds coloured (non-white, non-transparent) pixels of the two series
    // (the browser's canvas type, declared here: the tests compile without the DOM library)
    type Canvas = { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
    const inked = await canvas.evaluate((element) => {
      const canvasElement = element as unknown as Canvas;
      const { data } = canvasElement.getContext('2d').getImageData(0, 0, canvasElement.width, canvasElement.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && (data[i] < 200 || data[i + 2] < 200)) count++;
      return count;
    });
    expect(inked).toBeGreaterThan(500);
    await page.getByRole('heading', { name: 'Stage history' }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'bill-chart.png'), fullPage: true });
  });

  it('refuses a Free user’s second bill of the day, saying when it resets and what Pilot gives', async () => {
    await page.goto(`${base}/#/bills/2950`);
    const refusal = page.getByRole('alert').filter({ hasText: 'Daily prediction limit reached' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/resets at midnight UTC \(\d\d:00 on \d{1,2} \w+ in London\)\. The pilot tier gives 100 predictions a day/);
    await page.getByRole('heading', { name: 'Stage history' }).waitFor();
  });

  it('shows a Free user why there is no key button, and the server refuses the key anyway (403)', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
    await page.getByText('API keys are for the Pilot tier or above').waitFor();
    expect(await page.getByRole('button', { name: 'Create API key' }).count()).toBe(0);
    const answer = await page.evaluate(async (query) => {
      const res = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      return { status: res.status, body: (await res.json()) as { errors: { message: string }[] } };
    }, WEB.CREATE_API_KEY);
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0].message).toMatch(/pilot tier or above/);
  });

  it('after an upgrade by the admin command, creates a key that works on /api/v1 and revokes it in the page', async () => {
    const notHere = () => Promise.reject(new Error('not used by this test'));
    await runAdminCommand({ accounts: t.services.accounts, apiKeys: t.services.apiKeys, sessions: t.services.sessions, dataSource: t.db.dataSource, sync: notHere, train: notHere, replay: notHere }, 'set-tier', { email: EMAIL, tier: 'pilot' });
    await page.reload();
    await page.getByText('Pilot', { exact: true }).waitFor();
    await page.getByLabel('Key name (optional)').fill('laptop');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent())!;
    expect(key).toMatch(/^bp_[0-9a-f]{8}_/);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    expect((await predictWith(key)).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke laptop' }).click();
    await page.getByText(/^revoked /).waitFor();
    expect((await predictWith(key)).status).toBe(401);
  });

  it('builds a watchlist with a bill and a threshold through the page, and checks it now', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Watchlists' }).click();
    await page.getByLabel('New watchlist name').fill('Marriage law');
    await page.getByRole('button', { name: 'Create watchlist' }).click();
    await page.getByRole('heading', { name: 'Marriage law', level: 1 }).waitFor();
    await page.getByLabel('Search bills to add').fill('2900');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Add Marriage and Civil Partnership (Minimum Age) Bill' }).click();
    await page.getByRole('link', { name: 'Marriage and Civil Partnership (Minimum Age) Bill' }).waitFor();
    await page.getByLabel('Alert type').selectOption('PROBABILITY');
    await page.getByLabel('Threshold (0–1)').fill('0.01');
    await page.getByRole('button', { name: 'Add threshold' }).click();
    await page.getByRole('button', { name: 'Delete the Royal Assent probability threshold' }).waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/^Checked 1 thresholds on 1 bills: fired: Royal Assent probability on Marriage and Civil Partnership \(Minimum Age\) Bill: \d+%/).waitFor();
    const thresholds = await t.services.alerts.list(await t.accountIdOf(EMAIL), 'pilot');
    expect(thresholds).toEqual([expect.objectContaining({ alertType: 'probability', thresholdValue: 0.01, billId: null })]);
  });

  it('registers a webhook in the page: a private address refused, the secret shown once, a test event among its deliveries, a failed delivery re-sent, rotated, disabled, enabled, edited, deleted', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No endpoints yet.').waitFor();
    expect(await page.getByLabel('One of your alert thresholds fires').isDisabled()).toBe(true); // Pro only; this user is Pilot
    await page.getByLabel('Endpoint URL').fill('https://intranet.example.com/hook');
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await page.getByRole('alert').filter({ hasText: 'intranet.example.com resolves to 10.1.2.3, a loopback, private or special-purpose address' }).waitFor();

    const url = 'https://hook.example.com/bill-progress';
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('A prediction changes').check();
    await page.getByRole('button', { name: 'Register webhook' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const endpoint = page.getByRole('article', { name: url });
    await endpoint.getByText('bill.stage_changed').waitFor();
    await endpoint.getByText('prediction.updated').waitFor();

    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    const deliveries = endpoint.getByRole('table', { name: 'Recent deliveries, newest first' });
    await deliveries.getByRole('row').filter({ hasText: 'webhook.test' }).filter({ hasText: 'pending' }).waitFor();

    // a delivery that was given up on is queued again from the page
    const [registered] = await t.services.webhooks.list(await t.accountIdOf(EMAIL));
    await t.db.dataSource.query(`UPDATE webhook_delivery SET status = 'failed', attempt = 10, last_error = 'HTTP 503' WHERE endpoint_id = $1`, [registered.id]);
    await endpoint.getByRole('button', { name: 'Show deliveries' }).or(endpoint.getByRole('button', { name: 'Refresh deliveries' })).click();
    await deliveries.getByRole('row').filter({ hasText: 'webhook.test' }).filter({ hasText: 'failed' }).waitFor();
    await endpoint.getByLabel('Re-send the failed deliveries of events in').selectOption({ label: 'the last 24 hours' });
    await endpoint.getByRole('button', { name: 'Re-send failed deliveries' }).click();
    await endpoint.getByText('1 failed delivery queued again, from the first retry.').waitFor();
    await deliveries.getByRole('row').filter({ hasText: 'webhook.test' }).filter({ hasText: 'pending' }).waitFor();
    await endpoint.getByRole('button', { name: 'Re-send failed deliveries' }).click();
    await endpoint.getByText('No failed deliveries in that period.').waitFor();

    await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByText('The previous secret also signs deliveries for the next 24 hours').waitFor();
    expect(await page.getByTestId('webhook-secret').textContent()).not.toBe(secret);

    await endpoint.getByRole('button', { name: 'Disable' }).click();
    await endpoint.getByText('Disabled', { exact: true }).waitFor();
    const [stored] = await t.services.webhooks.list(await t.accountIdOf(EMAIL));
    expect(stored).toMatchObject({ url, active: false });
    await endpoint.getByRole('button', { name: 'Enable' }).click();
    await endpoint.getByText('Active', { exact: true }).waitFor();

    // edited in place: a private address refused in the form, then a new URL, events and scope saved
    await endpoint.getByRole('button', { name: 'Edit' }).click();
    await endpoint.getByLabel('Endpoint URL').fill('https://intranet.example.com/hook');
    await endpoint.getByRole('button', { name: 'Save changes' }).click();
    await endpoint.getByRole('alert').filter({ hasText: 'a loopback, private or special-purpose address' }).waitFor();
    const newUrl = 'https://hook.example.com/bill-progress/v2';
    await endpoint.getByLabel('Endpoint URL').fill(newUrl);
    await endpoint.getByLabel('A prediction changes').uncheck();
    await endpoint.getByLabel('Every bill, not only the bills on my watchlists').check();
    await endpoint.getByRole('button', { name: 'Save changes' }).click();
    const edited = page.getByRole('article', { name: newUrl });
    await edited.getByText('Saved: the next events are sent with these settings.').waitFor();
    await edited.getByText('every bill').waitFor();
    expect(await edited.getByText('prediction.updated').count()).toBe(0);
    expect(await t.services.webhooks.list(await t.accountIdOf(EMAIL))).toEqual([expect.objectContaining({ url: newUrl, events: ['bill.stage_changed'], allBills: true })]);

    // shown once: a reload lists the endpoint without any secret
    await page.reload();
    await edited.waitFor();
    expect(await page.getByTestId('webhook-secret').count()).toBe(0);
    await edited.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No endpoints yet.').waitFor();
    expect(await t.services.webhooks.list(await t.accountIdOf(EMAIL))).toEqual([]);
  });

  it('refuses a cross-site request that carries the session: the browser’s own CORS/SameSite, and the server’s Origin check', async () => {
    // a page of another site (127.0.0.1 is not the site localhost) tries to log the user out
    const foreign = await page.context().newPage();
    await foreign.goto(base.replace('localhost', '127.0.0.1') + '/');
    const outcome = await foreign.evaluate(async (target) => {
      try {
        const res = await fetch(`${target}/graphql`, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'mutation { logOut }' }) });
        return `status ${res.status}`;
      } catch {
        return 'blocked';
      }
    }, base);
    expect(outcome).toBe('blocked');
    await foreign.close();
    // the same request sent with the cookie by a client that ignores CORS: refused by Origin
    const cookie = (await page.context().cookies(base)).find((c) => c.name === 'bp_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const forged = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `bp_session=${cookie.value}`, origin: 'http://evil.example' },
      body: JSON.stringify({ query: WEB.LOG_OUT }),
    });
    expect(forged.status).toBe(403);
    await page.reload();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  });

  it('logs out', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
    await page.goto(`${base}/#/account`);
    await page.getByRole('heading', { name: 'Log in', level: 1 }).waitFor();
  });

  it('ran every page above, and the API reference at /docs, without anything blocked by their Content-Security-Policy', async () => {
    await page.goto(`${base}/docs`);
    await page.locator('.swagger-ui .opblock').first().waitFor();
    expect(policyViolations).toEqual([]);
  });
});
