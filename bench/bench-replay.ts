import 'reflect-metadata';
import os from 'node:os';
import { Writable } from 'node:stream';
import { ServiceClock } from '../src/common/clock';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { ingest } from '../src/ingest/ingest.service';
import { SnapshotSource } from '../src/ingest/snapshot.source';
import { replay, type ReplayDay } from '../src/services/replay';
import { createLogger } from '../src/logger';
import { Readiness } from '../src/health/readiness';
import { createServices } from '../src/services/services';

/** Bills the replay should refresh each day: issue 10's figure. */
const TARGET_BILLS = 300;
const FROM = '2021-11-01';
const TO = '2021-12-31';

/**
 * `npm run bench` (part): the events refresh replayed over November and December 2021 on the whole
 * snapshot, in an in-memory embedded database, with the served model's networks (trained for one
 * iteration: a nowcast costs the same whatever the weights). The bills live in the period are
 * topped up to 300 with a Pro user's watchlist of bills that ended before it, each with
 * probability, trend and spike thresholds, so the refresh evaluates thresholds as it would.
 * Prints the time per replayed day against issue 10's target (well under a second).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.snapshotDir) throw new Error('npm run bench needs a snapshot folder: set BILLS_SNAPSHOT');
  const db = await openDatabase({ dataDir: null });
  try {
    await ingest(db.dataSource, new SnapshotSource(config.snapshotDir));
    const clock = new ServiceClock('2021-10-31');
    clock.setDataAsOf('2021-12-31');
    const logger = createLogger('warn', new Writable({ write: (_c, _e, done) => done() }) as never);
    const services = createServices({ dataSource: db.dataSource, embeddedDatabase: true, clock, readiness: new Readiness(), logger, trainingOptions: { iterations: 1 } });
    await services.models.train();

    const [{ live }] = (await db.dataSource.query(`SELECT count(*)::int AS live FROM bill WHERE outcome = 'pending' AND introduced_date <= $1`, [TO])) as { live: number }[];
    const ended = (await db.dataSource.query(`SELECT id FROM bill WHERE outcome <> 'pending' AND introduced_date <= '2021-10-31' ORDER BY introduced_date DESC LIMIT $1`, [Math.max(0, TARGET_BILLS - live)])) as { id: number }[];
    const account = await services.accounts.create('bench@example.com', 'pro');
    const watchlist = await services.watchlists.create(account.id, { name: 'bench', billIds: ended.map((r) => r.id) });
    for (const [alertType, thresholdValue] of [['probability', 0.5], ['trend', 0.05], ['spike', 0.1]] as const) {
      await services.alerts.create(account.id, 'pro', { watchlistId: watchlist.id, alertType, thresholdValue });
    }

    await services.events.refresh.run('2021-10-31');
    const days: ReplayDay[] = [];
    const cpuBefore = process.cpuUsage();
    const report = await replay(services.events.refresh, clock, FROM, TO, (d) => days.push(d));
    const cpu = process.cpuUsage(cpuBefore);
    // CPU time is what a busy machine does not inflate: PGlite runs in this process
    const cpuMsPerDay = Math.round((cpu.user + cpu.system) / 1000 / report.days);
    const ms = days.map((d) => d.ms).sort((a, b) => a - b);
    const bills = Math.round(days.reduce((n, d) => n + d.bills, 0) / days.length);
    const p50 = ms[Math.floor(ms.length / 2)];
    process.stdout.write('events refresh benchmark\n');
    process.stdout.write(
      `  replay ${FROM} to ${TO} (${report.days} days, ${bills} bills refreshed a day, ${report.events} events)  ${report.ms_per_day} ms a day (p50 ${p50} ms, slowest ${ms[ms.length - 1]} ms)  target well under 1000 ms: ${report.ms_per_day < 500 ? 'PASS' : 'MISS'}\n`,
    );
    process.stdout.write(`  CPU time a replayed day (user + system, this process with its embedded database): ${cpuMsPerDay} ms; load average now ${os.loadavg()[0].toFixed(1)}\n`);
    process.stdout.write(`  events by type: ${JSON.stringify(report.events_by_type)}\n`);
    await services.events.bus.close();
    await services.quotas.close();
  } finally {
    await db.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bench: ${error.message}\n`);
  process.exit(1);
});
