import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { ServiceEvent } from '../../src/events/event';
import { markVerified } from '../support/dashboard-session';
import { type DashboardBrowser, onEmbeddedRun, openDashboardBrowser, signUpInPage } from '../support/dashboard-browser';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The dashboard's channels (issue 33) in headless Chromium, against a real server on the
 * embedded database: a watchlist's email settings with the address's status, "Resend
 * verification email" and "Send me a test email"; the next digest's preview, empty before a
 * change and the digest's text after one; its calendar and Atom addresses copied, renewed
 * and turned off; "Download CSV"; the Outbox; a Slack webhook registered with its format.
 * Screenshots go to test-artifacts/channels-*.png.
 */
const describeInBrowser = onEmbeddedRun ? describe : describe.skip;
const EMAIL = 'channels@example.com';
const PASSWORD = 'a long enough password';

let t: TestApp;
let b: DashboardBrowser;
let page: Page;
let watchlistId: number;

beforeAll(async () => {
  if (!onEmbeddedRun) return;
  // webhook hosts resolve by this table (no DNS in tests)
  t = await startTestApp({ trainModel: true, deliverMail: true, anonRateLimit: 120, webhookUrlPolicy: { allowPrivate: false, resolve: async (host) => (host === 'hooks.slack.com' ? ['93.184.215.14'] : Promise.reject(new Error('ENOTFOUND'))) } });
  b = await openDashboardBrowser(t);
  page = b.page;
  await signUpInPage(t, page, b.base, EMAIL, PASSWORD, 'pilot');
  watchlistId = (await t.services.watchlists.create(await t.accountIdOf(EMAIL), { name: 'Marriage and more', billIds: [2900, 26, 144] })).id;
}, 120_000);

afterAll(async () => {
  await b?.browser.close();
  await t?.close();
});

const openWatchlist = async () => {
  await page.goto(`${b.base}/#/watchlists/${watchlistId}`);
  await page.getByRole('heading', { name: 'Email notifications', level: 2 }).waitFor();
};

describeInBrowser('a watchlist’s channels in Chromium', () => {
  it('shows an unverified address with a resend button, then a verified one with a test email', async () => {
    await openWatchlist();
    await page.getByText('Not verified').waitFor();
    expect(await page.getByRole('button', { name: 'Send me a test email' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await page.getByRole('status').filter({ hasText: `A new verification link is on its way to ${EMAIL}.` }).waitFor();

    await markVerified(t, EMAIL);
    await page.reload();
    await page.getByText('Verified', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send me a test email' }).click();
    await page.getByRole('status').filter({ hasText: `A test email is on its way to ${EMAIL}` }).waitFor();
  });

  it('saves a weekly digest at a time and day, with the events chosen; Pro-only types are offered to Pro only', async () => {
    await openWatchlist();
    const form = page.getByRole('form', { name: 'Email notifications' });
    expect(await form.getByLabel('Digest time').isDisabled()).toBe(true);
    await form.getByLabel('Email', { exact: true }).selectOption('WEEKLY');
    await form.getByLabel('Digest time').fill('07:30');
    await form.getByLabel('Weekly digest day').selectOption('FRIDAY');
    await form.getByLabel('A prediction changes (by a point or more, or a day of its timeline)').check();
    expect(await form.getByLabel('A probability jumps 15 points within a week').isDisabled()).toBe(true);
    await b.screenshot('channels-watchlist');
    await form.getByRole('button', { name: 'Save email settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Email settings saved.' }).waitFor();
    const saved = await t.services.notifications.settingsOf(await t.accountIdOf(EMAIL), watchlistId);
    expect(saved).toMatchObject({ email: 'weekly', time: '07:30', day: 'friday' });
    expect([...saved.events].sort()).toEqual(['bill.stage_changed', 'bill.stage_scheduled', 'prediction.imminent_stage_change', 'prediction.updated']);
    // what was saved is what the page shows when opened again
    await page.reload();
    expect(await page.getByRole('form', { name: 'Email notifications' }).getByLabel('Weekly digest day').inputValue()).toBe('FRIDAY');
  });

  it('previews the next digest: nothing to send before a change, the digest’s subject and text after one', async () => {
    await openWatchlist();
    const panel = page.getByRole('region', { name: 'Next digest' });
    await panel.getByText(/^Nothing to send yet/).waitFor();
    expect(await t.services.digests.preview(await t.accountIdOf(EMAIL))).toBeNull();

    const event: ServiceEvent = { id: `evt_preview_${Date.now()}`, type: 'bill.stage_changed', timestamp: '2021-11-26T09:00:00.000Z', data: { bill_id: 2900, stage_record_id: 1, stage: 'second_reading', house: 'Commons', date: '2021-11-26' } };
    await t.services.dataSource.transaction((manager) => t.services.events.log.record(manager, [event], '2021-11-26'));
    await panel.getByRole('button', { name: 'Refresh preview' }).click();
    const preview = (await t.services.digests.preview(await t.accountIdOf(EMAIL)))!;
    expect(preview).toMatchObject({ slot: 'weekly friday 07:30', watchlistIds: [watchlistId] });
    await panel.getByText(preview.subject, { exact: true }).waitFor();
    await panel.getByText(/^Goes Fri, .* 07:30 UK time/).waitFor();
    await panel.getByText('· weekly friday 07:30', { exact: true }).waitFor();
    await panel.getByText(/this one included/).waitFor();
    // the plain-text part, as text: the same the email would carry
    expect(await panel.getByLabel('The digest’s text').textContent()).toBe(preview.text);
    expect(preview.text).toContain('Second reading (Commons)');
    expect(await panel.locator('iframe').count()).toBe(0);
    await panel.scrollIntoViewIfNeeded();
    await b.screenshot('channels-digest');
  });

  it('copies the calendar address, which serves the calendar; makes new addresses (the old one 404s); turns them off', async () => {
    await openWatchlist();
    const calendar = page.locator('.key-row code').first();
    const url = (await calendar.textContent())!;
    expect(url).toMatch(/\/api\/v1\/calendar\/[A-Za-z0-9_-]+\.ics$/);
    expect(await page.locator('.key-row code').nth(1).textContent()).toMatch(/\/api\/v1\/feeds\/[A-Za-z0-9_-]+\.atom$/);
    const copy = page.getByRole('button', { name: 'Copy the calendar address' });
    await copy.click();
    await copy.filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(url);
    const path = new URL(url).pathname;
    const ics = await t.http().get(path);
    expect(ics.status).toBe(200);
    expect(ics.text).toContain('BEGIN:VCALENDAR');

    await page.getByRole('button', { name: 'Make new addresses' }).click();
    await page.getByRole('status').filter({ hasText: 'New addresses made' }).waitFor();
    expect(await calendar.textContent()).not.toBe(url);
    expect((await t.http().get(path)).status).toBe(404);

    await page.getByRole('button', { name: 'Turn addresses off' }).click();
    await page.getByText('No addresses: they were turned off.').waitFor();
    await page.getByRole('button', { name: 'Make addresses' }).waitFor();
  });

  it('downloads the watchlist’s predictions as the CSV file REST serves', async () => {
    await openWatchlist();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^watchlist-${watchlistId}-predictions-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const text = readFileSync((await download.path())!, 'utf8');
    const key = await t.services.apiKeys.create(EMAIL);
    const rest = await t.http().get(`/api/v1/dashboard/watchlists/${watchlistId}/predictions.csv`).set('authorization', `Bearer ${key.api_key}`).buffer(true);
    expect(text).toBe(rest.text);
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(4);
    await page.getByRole('status').filter({ hasText: '(3 bills)' }).waitFor();
  });

  it('lists the account’s mail in the Outbox, each readable as text', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Outbox', exact: true }).click();
    await page.getByRole('heading', { name: 'Outbox', level: 1 }).waitFor();
    // the next digest is previewed here too, above the list
    await page.getByRole('region', { name: 'Next digest' }).getByText('Weekly digest: 1 change to 1 bill', { exact: true }).waitFor();
    const emails = page.getByRole('list', { name: 'Emails' });
    // the sign-up's link, the one resent, and the test email (the worker delivers within seconds)
    await emails.getByText('Bill Progress test email').waitFor();
    expect(await emails.getByText('Confirm your email address for Bill Progress').count()).toBe(2);
    await emails.getByText('Bill Progress test email').click();
    await emails.getByText(/If it arrived, alerts and digests will reach this address\./).waitFor();
    await b.screenshot('channels-outbox');
  });

  it('registers a Slack webhook with its format; an http Slack URL is refused with the server’s reason', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('heading', { name: 'Register an endpoint', level: 2 }).waitFor();
    await page.getByLabel('Format').selectOption('SLACK');
    await page.getByText(/It must be https, on a host the operator allows/).waitFor();
    await page.getByLabel('Endpoint URL').fill('http://hooks.slack.com/services/T0/B0/X');
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await page.getByRole('alert').filter({ hasText: 'a Slack webhook URL must use https' }).waitFor();
    await page.getByLabel('Endpoint URL').fill('https://hooks.slack.com/services/T0/B0/X');
    await page.getByRole('button', { name: 'Register webhook' }).click();
    const card = page.getByRole('article', { name: 'https://hooks.slack.com/services/T0/B0/X' });
    await card.getByText('Slack (incoming webhook)').waitFor();
    await b.screenshot('channels-webhooks');
    const [endpoint] = await t.services.webhooks.list(await t.accountIdOf(EMAIL));
    expect(endpoint).toMatchObject({ url: 'https://hooks.slack.com/services/T0/B0/X', format: 'slack' });
  });

  it('reflows the watchlist’s channels on a phone: nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openWatchlist();
    await page.getByRole('button', { name: 'Download CSV' }).waitFor();
    const overflow = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return doc.scrollWidth - doc.clientWidth;
    });
    await b.screenshot('channels-watchlist-phone');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1100, height: 900 });
  });
});
