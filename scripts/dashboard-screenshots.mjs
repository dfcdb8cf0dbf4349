#!/usr/bin/env node
// Screenshots of the dashboard's main pages for docs/ (docs/dashboard-*.png), taken in headless
// Chromium against a running server on the shipped data:
//   DATA_DIR=<the server's> node scripts/dashboard-screenshots.mjs http://localhost:4000
// It signs up a new account, verifies its address from the local mailbox, and makes it Pro with
// the admin command to show every page. The watchlist is set to a daily digest, then the admin
// command replays the data's last weeks (bill 2900's second reading among them), so the
// next-digest panel shows the email the digest would send; the replay ends on the data's last
// day, where the server was. For the webhooks page it receives deliveries itself on 127.0.0.1:
// start the server with WEBHOOK_ALLOW_PRIVATE=true (and without SMTP_URL, so mail stays in the
// local mailbox).
// The replay records real events once: use a new data directory for each run.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const base = process.argv[2] ?? 'http://localhost:4000';
const email = `screenshots-${Date.now()}@example.com`;
const shot = (page, name) => page.screenshot({ path: path.join(ROOT, 'docs', `dashboard-${name}.png`) });
const admin = (...args) => {
  const run = spawnSync('npm', ['run', '-s', 'admin', '--', ...args], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`the admin command ${args[0]} failed`);
};

// a webhook receiver that accepts every delivery
const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/bill-progress`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 820 } });
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto(`${base}/#/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('screenshots password');
  await page.getByRole('button', { name: 'Sign up' }).click();
  // sign-up signs no one in: the log-in form follows, the email kept
  await page.getByRole('heading', { name: 'Log in', level: 1 }).waitFor();
  await page.getByLabel('Password').fill('screenshots password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Bills', level: 1 }).waitFor();
  admin('set-tier', '--email', email, '--tier', 'pro');
  // the verification link, from the local mailbox, so the pages show a verified address
  await page.goto(`${base}/#/outbox`);
  const link = /\/account\/verify-email\/[A-Za-z0-9_-]+/.exec(await page.locator('pre.mail-body').first().textContent());
  if (!link) throw new Error('no verification link in the local mailbox (is SMTP_URL set?)');
  await page.goto(`${base}${link[0]}`);

  await page.goto(`${base}/#/bills?q=Environment`);
  await page.getByRole('table').waitFor();
  await shot(page, 'bills');
  await page.goto(`${base}/#/bills/2900`);
  await page.getByTestId('probability-chart').locator('canvas').waitFor();
  await page.screenshot({ path: path.join(ROOT, 'docs', 'dashboard-bill.png'), fullPage: true });
  await page.goto(`${base}/#/imminent`);
  await page.getByRole('table').waitFor();
  await shot(page, 'imminent');
  await page.goto(`${base}/#/watchlists`);
  await page.getByLabel('New watchlist name').fill('Bills I follow');
  await page.getByRole('button', { name: 'Create watchlist' }).click();
  await page.getByRole('heading', { name: 'Bills I follow', level: 1 }).waitFor();
  for (const id of ['2900', '2812']) {
    await page.getByLabel('Search bills to add').fill(id);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: /^Add .* Bill$/ }).click();
    await page.getByText('Bill added.').waitFor();
  }
  await page.getByLabel('Threshold (0–1)').fill('0.2');
  await page.getByRole('button', { name: 'Add threshold' }).click();
  await page.getByRole('button', { name: 'Check now' }).click();
  await page.getByText(/^Checked /).waitFor();
  // a daily digest, so the page shows its setting and the next digest's panel
  const emailForm = page.getByRole('form', { name: 'Email notifications' });
  await emailForm.getByLabel('Email', { exact: true }).selectOption('DAILY');
  await emailForm.getByRole('button', { name: 'Save email settings' }).click();
  await page.getByText('Email settings saved.').waitFor();
  // something for the digest to say: the watched bills' real stages, replayed once the digest is on
  // up to the data's last day, where the server was, so the digest and the page agree
  admin('replay', '--from', '2021-11-18', '--to', '2021-12-31');
  const nextDigest = page.getByRole('region', { name: 'Next digest' });
  await nextDigest.getByRole('button', { name: 'Refresh preview', disabled: false }).click();
  await nextDigest.getByText(/^Daily digest: /).first().waitFor();
  await page.screenshot({ path: path.join(ROOT, 'docs', 'dashboard-watchlist.png'), fullPage: true });
  await page.goto(`${base}/#/account`);
  await page.getByLabel('Key name (optional)').fill('laptop');
  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByTestId('new-api-key').waitFor();
  await page.screenshot({ path: path.join(ROOT, 'docs', 'dashboard-account.png'), fullPage: true });
  await page.goto(`${base}/#/webhooks`);
  await page.getByLabel('Endpoint URL').fill(hookUrl);
  await page.getByLabel('Description (optional)').fill('Our bill tracker');
  await page.getByLabel('A prediction changes').check();
  await page.getByRole('button', { name: 'Register webhook' }).click();
  await page.getByTestId('webhook-secret').waitFor();
  const endpoint = page.getByRole('article', { name: hookUrl });
  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  // the worker delivers within moments: refresh until the delivery shows its status code
  for (let i = 0; i < 20 && !(await endpoint.getByRole('cell', { name: '204' }).count()); i++) {
    await page.waitForTimeout(250);
    await endpoint.getByRole('button', { name: 'Refresh deliveries' }).click();
  }
  await page.screenshot({ path: path.join(ROOT, 'docs', 'dashboard-webhooks.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`${base}/#/bills/2900`);
  await page.getByTestId('probability-chart').locator('canvas').waitFor();
  await shot(page, 'phone');
  await page.goto(`${base}/#/webhooks`);
  await page.getByRole('article', { name: hookUrl }).waitFor();
  await page.screenshot({ path: path.join(ROOT, 'docs', 'dashboard-webhooks-phone.png'), fullPage: true });
} catch (error) {
  await (await browser.contexts()[0]?.pages()[0])?.screenshot({ path: '/tmp/dashboard-screenshots-failure.png', fullPage: true });
  throw error;
} finally {
  await browser.close();
  receiver.close();
}
