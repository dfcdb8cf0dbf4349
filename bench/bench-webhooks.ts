import 'reflect-metadata';
import { Client } from 'pg';
import { type Database, openDatabase } from '../src/db/database';
import type { ServiceEvent } from '../src/events/event';
import { createLogger } from '../src/logger';
import { newEventId } from '../src/events/payloads';
import { WebhookService } from '../src/services/webhook.service';
import { DeliveryWorker } from '../src/events/webhooks/delivery-worker';
import { OutboxHandoff } from '../src/events/webhooks/handoff';
import { webhookOutbox } from '../src/events/webhooks/outbox';
import { loadSecretBox } from '../src/events/webhooks/secret-box';
import { monotonicMs, startReceiver } from './bench-webhook-receiver';

/**
 * `npm run bench` (webhooks): 1,000 endpoints (100 Pilot accounts × 10, every bill) on a loopback
 * receiver, on the embedded database. A "refresh" writes its events through the outbox in one
 * transaction; latency runs from its commit to each request's arrival at the receiver. Figures,
 * not assertions. After the first 1-event and the 10-event rounds, BENCH_WARM_ROUNDS (5) more
 * 1-event rounds show a worker whose code is warm. The receiver runs in a child process
 * (bench/bench-webhook-receiver.ts), as a deployment's receivers are elsewhere;
 * BENCH_RECEIVER=in-process runs it in this one, to see what the receiver's CPU costs the worker.
 * PGlite runs its queries on this thread: BENCH_POSTGRES_URL=postgres://… measures on PostgreSQL instead.
 * The outbox hands its rows to the worker after the commit, as in the server; BENCH_HANDOFF=off
 * leaves them to be claimed from the database, as rows the worker cannot hold are, to measure
 * what the handoff saves.
 */
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 1_000);
const PER_ACCOUNT = 10;
/** Rounds of 1 event measured after the first two (BENCH_WARM_ROUNDS), 300 ms apart. */
const WARM_ROUNDS = Number(process.env.BENCH_WARM_ROUNDS ?? 5);

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
  const webhooks = new WebhookService(db.dataSource, loadSecretBox({}), { allowPrivate: true }, now, 'http://localhost:4000');
  const handoff = new OutboxHandoff();
  const outbox = webhookOutbox({ now, handoff, publicUrl: 'http://localhost:4000' });

  const receiver = await startReceiver(process.env.BENCH_RECEIVER === 'in-process');
  const { port } = receiver;

  for (let a = 0; a < ENDPOINTS / PER_ACCOUNT; a++) {
    const [{ id }] = (await db.dataSource.query(`INSERT INTO account (email, tier) VALUES ($1, 'pilot') RETURNING id`, [`bench${a}@example.com`])) as { id: number }[];
    for (let e = 0; e < PER_ACCOUNT; e++) await webhooks.create(id, 'pilot', { url: `http://127.0.0.1:${port}/hook/${a}/${e}`, events: ['bill.stage_changed'], allBills: true });
  }

  const worker = new DeliveryWorker(db.dataSource, { urlPolicy: { allowPrivate: true }, secretsFor: (endpoint, at) => webhooks.signingSecrets(endpoint, at), embedded: db.kind === 'pglite', logger });
  await worker.start();
  // BENCH_HANDOFF=off: the worker is woken but handed no rows, so it claims every one
  handoff.attach(process.env.BENCH_HANDOFF !== 'off' ? worker : { wake: () => worker.wake(), preclaim: () => null, accept: () => undefined });

  const round = async (events: number) => {
    const expected = events * ENDPOINTS;
    const arrived = receiver.arrivals(expected);
    const batch: ServiceEvent[] = Array.from({ length: events }, (_, i) => ({ id: newEventId(), type: 'bill.stage_changed', timestamp: new Date().toISOString(), data: { bill_id: 2900 + i, stage: 'second_reading', house: 'Commons', date: '2021-11-26' } }));
    const refreshStarted = monotonicMs();
    await db.dataSource.transaction((manager) => outbox(manager, batch));
    const committed = monotonicMs();
    // what the event log does once the emitter's transaction has committed (src/events/event-log.ts)
    handoff.committed(batch);
    const cpuAtCommit = process.cpuUsage();
    const arrivals = await arrived;
    // this process's CPU (all its threads) from the commit to the last arrival (the receiver's once it answered, in-process)
    const used = process.cpuUsage(cpuAtCommit);
    // and until every outcome is written (successes are written in batches, after the sending)
    while (worker.sending) await new Promise((resolve) => setTimeout(resolve, 2));
    const usedAll = process.cpuUsage(cpuAtCommit);
    const latencies = arrivals.map((at) => at - committed).sort((x, y) => x - y);
    return { deliveries: expected, writeMs: committed - refreshStarted, p50: percentile(latencies, 50), p99: percentile(latencies, 99), perSecond: expected / ((Math.max(...arrivals) - committed) / 1000), cpuMs: (used.user + used.system) / 1000, cpuAllMs: (usedAll.user + usedAll.system) / 1000 };
  };

  await round(1); // warm-up
  const one = await round(1);
  const ten = await round(10);
  // a worker that has been delivering for a while (its code optimised): rounds of 1 event, apart
  const warm: Awaited<ReturnType<typeof round>>[] = [];
  for (let i = 0; i < WARM_ROUNDS; i++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    warm.push(await round(1));
  }
  await worker.stop();
  await receiver.close();
  await db.close();
  await drop();

  process.stdout.write(`webhook delivery benchmark (${ENDPOINTS} endpoints on a loopback receiver ${receiver.where === 'in-process' ? 'in the worker\'s process' : 'in a child process'}, ${label})\n`);
  for (const [what, r] of [[`1 event → ${ENDPOINTS} deliveries`, one], [`10 events → ${ENDPOINTS * 10} deliveries`, ten]] as const) {
    process.stdout.write(
      `  ${what.padEnd(32)} outbox write ${r.writeMs.toFixed(0)} ms; commit → receiver p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms; ${r.perSecond.toFixed(0)} deliveries/s; this process's CPU commit → last arrival ${r.cpuMs.toFixed(0)} ms (→ outcomes written ${r.cpuAllMs.toFixed(0)} ms)   target p50 under 100 ms\n`,
    );
  }
  if (warm.length) {
    const median = [...warm].sort((x, y) => x.p50 - y.p50)[Math.floor(warm.length / 2)];
    process.stdout.write(
      `  then ${warm.length} rounds of 1 event, 300 ms apart: p50 / p99 / CPU (→ outcomes written) ${warm.map((r) => `${r.p50.toFixed(0)} / ${r.p99.toFixed(0)} / ${r.cpuMs.toFixed(0)} (${r.cpuAllMs.toFixed(0)})`).join(', ')} ms; median p50 ${median.p50.toFixed(0)} ms\n`,
    );
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bench-webhooks: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
