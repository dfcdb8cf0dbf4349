/**
 * Headless Chromium on a test app's dashboard (playwright-core driving Debian's Chromium), for
 * the browser tests: the app listening on a free port, one page, screenshots to test-artifacts/.
 * Flows that do not depend on the database run on the embedded run only (`onEmbeddedRun`).
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { dashboardDirectory } from '../../src/doors/http/dashboard-static';
import type { TestApp } from './test-app';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts');
export const onEmbeddedRun = !process.env.TEST_DATABASE_URL;
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface DashboardBrowser {
  browser: Browser;
  page: Page;
  /** the app's address, `http://localhost:PORT` */
  base: string;
  screenshot(name: string): Promise<void>;
}

/** Starts the app's HTTP server and a browser on it; confirm dialogs are accepted. */
export async function openDashboardBrowser(t: TestApp): Promise<DashboardBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does), or set CHROMIUM_PATH`);
  if (!dashboardDirectory()) throw new Error('The dashboard is not built: run `npm run build`');
  mkdirSync(ARTIFACTS, { recursive: true });
  await new Promise<void>((resolve) => t.app.httpServer.listen(0, '127.0.0.1', resolve));
  const base = `http://localhost:${(t.app.httpServer.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('dialog', (dialog) => void dialog.accept());
  return { browser, page, base, screenshot: async (name) => void (await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true })) };
}

/** Signs `email` up in the page, gives it `tier` (as the operator's set-tier does), and logs in. */
export async function signUpInPage(t: TestApp, page: Page, base: string, email: string, password: string, tier: 'pilot' | 'pro'): Promise<void> {
  await page.goto(`${base}/#/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Log in', level: 1 }).waitFor();
  await t.services.accounts.setTier(email, tier);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Bills', level: 1 }).waitFor();
}
