#!/usr/bin/env node
// The dashboard's home page load in headless Chromium, cold cache (a new browser context per load),
// against a running server:
//   node scripts/dashboard-page-load.mjs http://localhost:4000 [--runs 5] [--identity] [--slow]
// --identity asks for uncompressed files (Accept-Encoding: identity); --slow emulates a slow mobile
// link (Chrome DevTools' "Fast 3G": 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip).
// Prints per load: the navigation's load event, the time until the page's h1 is visible, and the
// bytes transferred (page, script, style sheet).
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '5' }, identity: { type: 'boolean' }, slow: { type: 'boolean' } } });
const base = positionals[0] ?? 'http://localhost:4000';
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (let i = 0; i < Number(values.runs); i++) {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    if (values.identity) await context.setExtraHTTPHeaders({ 'accept-encoding': 'identity' });
    const page = await context.newPage();
    if (values.slow) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    }
    const started = Date.now();
    await page.goto(`${base}/`);
    await page.locator('h1').first().waitFor({ state: 'visible' });
    const heading = Date.now() - started;
    const { load, bytes } = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      const files = performance.getEntriesByType('resource').filter((r) => !r.name.endsWith('/graphql'));
      return { load: navigation.loadEventEnd, bytes: navigation.transferSize + files.reduce((sum, r) => sum + r.transferSize, 0) };
    });
    console.log(`load ${Math.round(load)} ms, h1 visible ${heading} ms, ${(bytes / 1024).toFixed(1)} KB transferred`);
    await context.close();
  }
} finally {
  await browser.close();
}
