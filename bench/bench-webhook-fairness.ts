import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '../src/db/database';
import { createLogger } from '../src/logger';
import { WebhookService } from '../src/services/webhook.service';
import { OutboxHandoff } from '../src/events/webhooks/handoff';
import { DeliveryWorker } from '../src/events/webhooks/delivery-worker';
import { loadSecretBox } from '../src/events/webhooks/secret-box';

/**
 * `npm run bench` (webhook fairness, issue 21): 5 Pilot accounts × 10 endpoints at a receiver that
 * never answers, 400 test events queued to them (8 each), on the embedded database with the
 * worker's real limits and its 10 s timeout; meanwhile another account queues a test event every
 * 300 ms to a receiver that answers at once. The figure: that account's latency from the queueing to
 * the request's arrival, over a span that covers the first wave of timeouts. Goal: p99 under 1 s.
 */
const HANGING_ACCOUNTS = 5;
const ENDPOINTS_PER_ACCOUNT = 10;
const EVENTS_PER_ENDPOINT = 8;
const SAMPLES = Number(process.env.BENCH_FAIRNESS_SAMPLES ?? 40);
const EVERY_MS = 300;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

async function main(): Promise<void> {
  const db = await openDatabase({ dataDir: null });
  const logger = createLogger('silent');
  const handoff = new OutboxHandoff();
  const webhooks = new WebhookService(db.dataSource, loadSecretBox({}), { allowPrivate: true }, () => new Date(), 'http://localhost:4000', handoff);

  const hanging = await listen((req) => req.resume()); // never answers
  const arrivals = new Map<string, number>();
  const answering = await listen((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      arrivals.set(String(req.headers['webhook-id']), performance.now());
      res.writeHead(204).end();
    });
  });

  const account = async (email: string) => ((await db.dataSource.query(`INSERT INTO account (email, tier) VALUES ($1, 'pilot') RETURNING id`, [email])) as { id: number }[])[0].id;
  for (let a = 0; a < HANGING_ACCOUNTS; a++) {
    const accountId = await account(`slow${a}@example.com`);
    for (let e = 0; e < ENDPOINTS_PER_ACCOUNT; e++) {
      const { endpoint } = await webhooks.create(accountId, 'pilot', { url: hanging.url, events: ['bill.stage_changed'] });
      for (let i = 0; i < EVENTS_PER_ENDPOINT; i++) await webhooks.queueTest(accountId, endpoint.id);
    }
  }
  const other = await account('other@example.com');
  const { endpoint: otherEndpoint } = await webhooks.create(other, 'pilot', { url: answering.url, events: ['bill.stage_changed'] });

  const worker = new DeliveryWorker(db.dataSource, { urlPolicy: { allowPrivate: true }, secretsFor: (endpoint, at) => webhooks.signingSecrets(endpoint, at), embedded: true, logger });
  await worker.start();
  handoff.attach(worker);
  const queuedAt = new Map<string, number>();
  for (let i = 0; i < SAMPLES; i++) {
    await sleep(EVERY_MS);
    const started = performance.now();
    queuedAt.set((await webhooks.queueTest(other, otherEndpoint.id)).id, started);
  }
  const deadline = performance.now() + 30_000;
  while (arrivals.size < SAMPLES && performance.now() < deadline) await sleep(20);
  await worker.stop(0);
  hanging.server.closeAllConnections();
  answering.server.closeAllConnections();
  hanging.server.close();
  answering.server.close();
  await db.close();

  const latencies = [...queuedAt].map(([id, at]) => (arrivals.get(id) ?? Number.POSITIVE_INFINITY) - at).sort((x, y) => x - y);
  const hanged = HANGING_ACCOUNTS * ENDPOINTS_PER_ACCOUNT;
  process.stdout.write(
    `webhook fairness benchmark (${hanged} never-answering endpoints of ${HANGING_ACCOUNTS} accounts, ${hanged * EVENTS_PER_ENDPOINT} queued events, embedded database)\n` +
      `  another account's test delivery, queue → receiver, ${SAMPLES} samples over ${((SAMPLES * EVERY_MS) / 1000).toFixed(0)} s: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${latencies[latencies.length - 1].toFixed(0)} ms; ${arrivals.size}/${SAMPLES} arrived   goal p99 under 1000 ms\n`,
  );
}

main().catch((error: Error) => {
  process.stderr.write(`bench-webhook-fairness: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
