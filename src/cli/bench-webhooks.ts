import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { type Database, openDatabase } from '../db';
import type { ServiceEvent } from '../events/event';
import { createLogger } from '../logger';
import { newEventId, WebhookService } from '../services/webhook.service';
import { DeliveryWorker } from '../webhooks/delivery-worker';
import { webhookOutbox } from '../webhooks/outbox';
import { loadSecretBox } from '../webhooks/secret-box';
import { WakeSignal } from '../webhooks/wake-signal';

/**
 * `npm run bench` (webhooks): 1,000 endpoints (100 Pilot accounts × 10, every bill) on a loopback
 * receiver, on the embedded database. A "refresh" writes its events through the outbox in one
 * transaction; latency runs from its commit to each request's arrival at the receiver. Figures,
 * not assertions. The receiver shares this process with the worker, and so does PGlite, which runs
 * its queries on this thread: BENCH_POSTGRES_URL=postgres://… measures on PostgreSQL instead.
 */
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 1_000);
const PER_ACCOUNT = 10;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** With BENCH_POSTGRES_URL (a server URL), the bench runs on a database of its own there, dropped after. */
async function benchDatabase(): Promise<{ db: Database; label: string; drop: () => Promise<void> }> {
  const server = process.env.BENCH_POSTGRES_URL;
  if (!server) return { db: await openDatabase({ dataDir: null }), label: 'embedded database', drop: async () => undefined };
  const name = `bp_bench_webhooks_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: server });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { db: await openDatabase({ databaseUrl: url.toString(), dataDir: null, poolSize: 10 }), label: 'PostgreSQL', drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function main(): Promise<void> {
  const { db, label, drop } = await benchDatabase();
  const logger = createLogger('silent');
  const now = () => new Date();
  const queued = new WakeSignal();
  const webhooks = new WebhookService(db.dataSource, loadSecretBox({}), { allowPrivate: true }, now);
  const outbox = webhookOutbox({ now, written: () => queued.emit() });

  let arrivals: number[] = [];
  let expected = 0;
  let allArrived: () => void = () => undefined;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(performance.now());
      res.writeHead(204).end();
      if (arrivals.length === expected) allArrived();
    });
  });
  receiver.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;

  for (let a = 0; a < ENDPOINTS / PER_ACCOUNT; a++) {
    const [{ id }] = (await db.dataSource.query(`INSERT INTO account (email, tier) VALUES ($1, 'pilot') RETURNING id`, [`bench${a}@example.com`])) as { id: number }[];
    for (let e = 0; e < PER_ACCOUNT; e++) await webhooks.create(id, 'pilot', { url: `http://127.0.0.1:${port}/hook/${a}/${e}`, events: ['bill.stage_changed'], allBills: true });
  }

  const worker = new DeliveryWorker(db.dataSource, { urlPolicy: { allowPrivate: true }, secretsFor: (endpoint, at) => webhooks.signingSecrets(endpoint, at), embedded: db.kind === 'pglite', logger });
  queued.on(() => worker.wake());
  await worker.start();

  const round = async (events: number) => {
    arrivals = [];
    expected = events * ENDPOINTS;
    const done = new Promise<void>((resolve) => (allArrived = resolve));
    const batch: ServiceEvent[] = Array.from({ length: events }, (_, i) => ({ id: newEventId(), type: 'bill.stage_changed', timestamp: new Date().toISOString(), data: { bill_id: 2900 + i, stage: 'second_reading', house: 'Commons', date: '2021-11-26' } }));
    const refreshStarted = performance.now();
    await db.dataSource.transaction((manager) => outbox(manager, batch));
    const committed = performance.now();
    await done;
    const latencies = arrivals.map((at) => at - committed).sort((x, y) => x - y);
    return { deliveries: expected, writeMs: committed - refreshStarted, p50: percentile(latencies, 50), p99: percentile(latencies, 99), perSecond: expected / ((arrivals.at(-1)! - committed) / 1000) };
  };

  await round(1); // warm-up
  const one = await round(1);
  const ten = await round(10);
  await worker.stop();
  receiver.close();
  await db.close();
  await drop();

  process.stdout.write(`webhook delivery benchmark (${ENDPOINTS} endpoints on a loopback receiver, ${label})\n`);
  for (const [what, r] of [[`1 event → ${ENDPOINTS} deliveries`, one], [`10 events → ${ENDPOINTS * 10} deliveries`, ten]] as const) {
    process.stdout.write(
      `  ${what.padEnd(32)} outbox write ${r.writeMs.toFixed(0)} ms; commit → receiver p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms; ${r.perSecond.toFixed(0)} deliveries/s   target p50 under 100 ms\n`,
    );
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bench-webhooks: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
