import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { addDays } from '../src/common/dates';
import { loadConfig } from '../src/config';
import { replay } from '../src/services/replay';
import { createLogger } from '../src/logger';
import { startServer } from '../src/start-server';
import { clientPool, type FromClients, monotonicMs, type ToClients } from './bench-subscription-clients';

/**
 * `npm run bench` (subscriptions): N graphql-ws subscribers over real WebSockets to the server
 * (started in this process from dist/, on the whole snapshot, in a scratch DATA_DIR), one Pilot
 * account watching every bill live in the replayed days. The refresh replays day by day; latency
 * runs from the end of each refresh (its publish on the event bus, after the commit) to each
 * subscriber's receipt of the batch's first event. Figures, not assertions. The subscribers run in
 * a child process (bench/bench-subscription-clients.ts), as a deployment's subscribers are
 * elsewhere; BENCH_CLIENTS=in-process runs them in this one, sharing the server's thread, to see
 * what their CPU costs the server.
 */
const COUNTS = (process.env.BENCH_SUBSCRIBERS ?? '100,1000').split(',').map(Number);
const FROM = '2021-11-15';
const TO = '2021-11-30';
const DAYS_PER_ROUND = 4;
const PER_ACCOUNT = 10;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const until = async (test: () => boolean, what: string, ms = 60_000) => {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-bench-subscriptions-'));
  const config = loadConfig({ ...process.env, PORT: process.env.BENCH_PORT ?? '0', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent' });
  if (!config.snapshotDir) throw new Error('npm run bench needs a snapshot folder: set BILLS_SNAPSHOT');
  const logger = createLogger('warn', new Writable({ write: (_c, _e, done) => done() }) as never);
  const server = await startServer(config, logger, { trainingOptions: { iterations: 1 } });
  let closeClients: () => Promise<void> = async () => undefined;
  try {
    await server.initialSync;
    await server.modelReady();
    const { services } = server;
    await services.events.refresh.idle();
    // ten subscribers an account, as the webhook bench has ten endpoints an account: each account's
    // subscriptions stay within its burst limit, and a batch reaches many accounts
    const live = (await services.dataSource.query(`SELECT id FROM bill WHERE outcome = 'pending' AND introduced_date <= $1 ORDER BY id LIMIT 1000`, [TO])) as { id: number }[];
    const keys: string[] = [];
    for (let a = 0; a < Math.ceil(Math.max(...COUNTS) / PER_ACCOUNT); a++) {
      const { id } = await services.accounts.create(`bench-subscriber${a}@example.com`, 'pilot');
      keys.push((await services.apiKeys.create(`bench-subscriber${a}@example.com`)).api_key);
      await services.watchlists.create(id, { name: 'bench', billIds: live.map((r) => r.id) });
    }

    // the end of a refresh: its events reach the bus only after its transaction committed; the
    // clients learn each batch's ids and publish time, and report once every subscriber had it
    const pool = clientPool(process.env.BENCH_CLIENTS === 'in-process');
    let latencies: number[] = [];
    let cpuMs: number[] = [];
    const cpuAtPublish = new Map<number, NodeJS.CpuUsage>();
    let waiting: ((message: FromClients) => void) | null = null;
    pool.on((message) => {
      if ('received' in message) {
        latencies.push(...message.received.latencies);
        // this process's CPU (all its threads) from the publish to the batch's last receipt
        const start = cpuAtPublish.get(message.received.at);
        if (start) {
          const used = process.cpuUsage(start);
          cpuMs.push((used.user + used.system) / 1000);
        }
      }
      else if ('failed' in message) process.stderr.write(`bench-subscriptions: ${message.failed}\n`);
      else waiting?.(message);
    });
    const answer = (message: ToClients) =>
      new Promise<void>((resolve) => {
        waiting = () => resolve();
        pool.send(message);
      });
    closeClients = () => answer({ close: true });
    const publish = services.events.bus.publish.bind(services.events.bus);
    services.events.bus.publish = (events) => {
      const at = monotonicMs();
      cpuAtPublish.set(at, process.cpuUsage());
      if (events.length) pool.send({ batch: { ids: events.map((e) => e.id), at } });
      publish(events);
    };

    const rows: string[] = [];
    let day = 0;
    for (const count of COUNTS) {
      latencies = [];
      cpuMs = [];
      pool.send({ open: { url: `${server.url.replace('http', 'ws')}/graphql`, keys, perAccount: PER_ACCOUNT, count } });
      await until(() => services.events.bus.subscribers() >= count, `${count} subscriptions to open`);
      // one refresh at a time, as the daily one runs: the next day's refresh would take the thread the receipts need
      let events = 0;
      let refreshes = 0;
      for (let d = 0; d < DAYS_PER_ROUND; d++, day++) {
        const date = addDays(FROM, day);
        const report = await replay(services.events.refresh, services.clock, date, date);
        if (!report.events) continue;
        events += report.events;
        refreshes += 1;
        await until(() => latencies.length >= refreshes * count, `every subscriber to receive the refresh of ${date}`, 60_000).catch((error: Error) => process.stderr.write(`bench-subscriptions: ${error.message}\n`));
      }
      await answer({ unsubscribe: true });
      await until(() => services.events.bus.subscribers() === 0, 'the subscriptions to end');
      latencies.sort((a, b) => a - b);
      process.stdout.write(rows.length ? '' : `event subscription benchmark (graphql-ws over loopback WebSockets, clients ${pool.where === 'in-process' ? 'in the server\'s process' : 'in a child process'}, embedded database)\n`);
      rows.push(
        `  ${`${count} subscribers, ${refreshes} refreshes (${events} events)`.padEnd(44)} end of refresh → subscriber p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (${latencies.length} receipts of ${refreshes * count}); server CPU publish → last receipt ${cpuMs.map((ms) => ms.toFixed(0)).join(', ')} ms   target p50 under 100 ms`,
      );
      process.stdout.write(`${rows.at(-1)}\n`);
    }
  } finally {
    await closeClients();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bench-subscriptions: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
