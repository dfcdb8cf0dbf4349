import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { addDays } from '../../model/dates';
import { loadConfig } from '../config';
import { replay } from '../jobs/replay';
import { createLogger } from '../logger';
import { startServer } from '../start-server';

/**
 * `npm run bench` (subscriptions): N graphql-ws subscribers over real WebSockets to the server
 * (started in this process from dist/, on the whole snapshot, in a scratch DATA_DIR), one Pilot
 * account watching every bill live in the replayed days. The refresh replays day by day; latency
 * runs from the end of each refresh (its publish on the event bus, after the commit) to each
 * subscriber's receipt of the batch's first event. Figures, not assertions. The subscribers share
 * this process (and its one thread) with the server, as the webhook bench's receiver does.
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
  const clients: Client[] = [];
  try {
    await server.initialSync;
    await server.modelReady();
    const { services } = server;
    await services.refresh.idle();
    // ten subscribers an account, as the webhook bench has ten endpoints an account: each account's
    // subscriptions stay within its burst limit, and a batch reaches many accounts
    const live = (await services.dataSource.query(`SELECT id FROM bill WHERE outcome = 'pending' AND introduced_date <= $1 ORDER BY id LIMIT 1000`, [TO])) as { id: number }[];
    const keys: string[] = [];
    for (let a = 0; a < Math.ceil(Math.max(...COUNTS) / PER_ACCOUNT); a++) {
      const { id } = await services.accounts.create(`bench-subscriber${a}@example.com`, 'pilot');
      keys.push((await services.apiKeys.create(`bench-subscriber${a}@example.com`)).api_key);
      await services.watchlists.create(id, { name: 'bench', billIds: live.map((r) => r.id) });
    }

    // the end of a refresh: its events reach the bus only after its transaction committed
    const publishedAt = new Map<string, number>();
    const publish = services.eventBus.publish.bind(services.eventBus);
    services.eventBus.publish = (events) => {
      const at = performance.now();
      for (const e of events) publishedAt.set(e.id, at);
      publish(events);
    };

    const rows: string[] = [];
    let day = 0;
    for (const count of COUNTS) {
      const latencies: number[] = [];
      let errors = 0;
      let received = 0;
      const opened = clients.length;
      for (let i = opened; i < count; i++) {
        const client = createClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${keys[Math.floor(i / PER_ACCOUNT)]}` }, retryAttempts: 0, lazy: false });
        clients.push(client);
      }
      const seen = clients.map(() => new Set<number>());
      const disposers = clients.map((client, i) =>
        client.subscribe<{ events: { id: string } }>(
          { query: 'subscription { events { id } }' },
          {
            next: (r) => {
              received++;
              const id = r.data?.events.id;
              const at = id ? publishedAt.get(id) : undefined;
              // one latency per subscriber and refresh: the first event of the batch it receives
              if (at !== undefined && !seen[i].has(at)) {
                seen[i].add(at);
                latencies.push(performance.now() - at);
              }
            },
            error: (error) => {
              errors++;
              process.stderr.write(`bench-subscriptions: subscriber ${i}: ${JSON.stringify(error)}\n`);
            },
            complete: () => undefined,
          },
        ),
      );
      await until(() => services.eventBus.subscribers() >= count, `${count} subscriptions to open`);
      // one refresh at a time, as the daily one runs: the next day's refresh would take the thread the receipts need
      let events = 0;
      let refreshes = 0;
      for (let d = 0; d < DAYS_PER_ROUND; d++, day++) {
        const date = addDays(FROM, day);
        const report = await replay(services.refresh, services.clock, date, date);
        if (!report.events) continue;
        events += report.events;
        refreshes += 1;
        await until(() => latencies.length >= refreshes * count, `every subscriber to receive the refresh of ${date}`, 60_000).catch((error: Error) => process.stderr.write(`bench-subscriptions: ${error.message}\n`));
      }
      if (process.env.BENCH_DEBUG) process.stderr.write(`refreshes ${refreshes} receipts ${latencies.length} received ${received} errors ${errors}\n`);
      for (const dispose of disposers) dispose();
      await until(() => services.eventBus.subscribers() === 0, 'the subscriptions to end');
      publishedAt.clear();
      latencies.sort((a, b) => a - b);
      process.stdout.write(rows.length ? '' : 'event subscription benchmark (graphql-ws over loopback WebSockets, embedded database)\n');
      rows.push(
        `  ${`${count} subscribers, ${refreshes} refreshes (${events} events)`.padEnd(44)} end of refresh → subscriber p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (${latencies.length} receipts of ${refreshes * count})   target p50 under 100 ms`,
      );
      process.stdout.write(`${rows.at(-1)}\n`);
    }
  } finally {
    await Promise.all(clients.map((c) => c.dispose()));
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bench-subscriptions: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
