import { Writable } from 'node:stream';
import { type Database, openDatabase } from '../../src/db/database';
import { DataFreshness } from '../../src/ingest/freshness';
import { ScheduledSync } from '../../src/jobs/scheduled-sync';
import { createLogger } from '../../src/logger';
import { openTestDatabase, type TestDatabase, usingPostgres } from '../support/test-database';

// The scheduled sync (issue 22): one sync per interval across instances, backoff while the source
// fails, one log line per change of state, and the freshness that /readyz reports.

const INTERVAL = 60;
let db: TestDatabase;
/** a second instance: its own connections to the same PostgreSQL database (on PGlite, the one process's) */
let other: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  other = usingPostgres() ? await openDatabase({ databaseUrl: db.url, dataDir: null, poolSize: 3 }) : db;
});
afterAll(async () => {
  if (other !== db) await other.close();
  await db.close();
});

const clock = { now: new Date('2026-10-14T10:00:00.300Z') };
const at = (offsetSeconds: number) => (clock.now = new Date(Date.parse('2026-10-14T10:00:00.300Z') + offsetSeconds * 1000));

function instance(database: Database, sync: () => Promise<unknown>, job = 'test') {
  const lines: { msg: string }[] = [];
  const logger = createLogger('info', new Writable({ write: (chunk, _e, done) => (lines.push(JSON.parse(String(chunk))), done()) }) as never);
  const freshness = new DataFreshness('live', INTERVAL, () => clock.now);
  const scheduled = new ScheduledSync(database.dataSource, sync, freshness, logger, { intervalSeconds: INTERVAL, postgres: usingPostgres(), now: () => clock.now });
  return { scheduled, freshness, lines, job };
}

it('makes one sync per interval between two instances', async () => {
  let syncs = 0;
  const sync = async () => {
    syncs += 1;
    await new Promise((r) => setTimeout(r, 50));
  };
  const a = instance(db, sync);
  const b = instance(other, sync);
  at(0);
  expect((await Promise.all([a.scheduled.runDue(), b.scheduled.runDue()])).sort()).toEqual(['claimed elsewhere', 'synced']);
  at(30);
  expect(await Promise.all([a.scheduled.runDue(), b.scheduled.runDue()])).toEqual(['claimed elsewhere', 'claimed elsewhere']);
  at(INTERVAL);
  expect((await Promise.all([b.scheduled.runDue(), a.scheduled.runDue()])).sort()).toEqual(['claimed elsewhere', 'synced']);
  expect(syncs).toBe(2);
});

it('backs off while the source fails, logs the failure and the recovery once each, and reports the data stale after 3 intervals', async () => {
  let failing = true;
  const { scheduled, freshness, lines } = instance(db, async () => {
    if (failing) throw new Error('Bills API answered 503');
  });
  at(10 * INTERVAL);
  failing = false;
  expect(await scheduled.runDue()).toBe('synced');
  const lastSuccess = freshness.report().lastSuccessAt;
  failing = true;
  const backoff: number[] = [];
  for (let i = 1; i <= 4; i++) {
    at((10 + i) * INTERVAL);
    expect(await scheduled.runDue()).toBe('failed');
    backoff.push(scheduled.backoffIntervals);
  }
  expect(backoff).toEqual([2, 4, 4, 4]);
  expect(lines.filter((l) => l.msg.startsWith('scheduled sync failed'))).toHaveLength(1);
  expect(freshness.report()).toMatchObject({ source: 'live', lastSuccessAt: lastSuccess, lastSyncAt: clock.now, stale: true });

  failing = false;
  at(15 * INTERVAL);
  expect(await scheduled.runDue()).toBe('synced');
  expect(scheduled.backoffIntervals).toBe(1);
  expect(freshness.report()).toMatchObject({ stale: false, asOf: '2026-10-14' });
  expect(lines.filter((l) => l.msg === 'scheduled sync recovered')).toHaveLength(1);
});

it('is not stale within 3 intervals of the last success, and never when scheduled syncs are off', () => {
  at(0);
  const fresh = new DataFreshness('live', INTERVAL, () => clock.now);
  fresh.succeeded(clock.now);
  at(3 * INTERVAL);
  expect(fresh.report().stale).toBe(false);
  at(3 * INTERVAL + 1);
  expect(fresh.report().stale).toBe(true);
  expect(new DataFreshness('snapshot', 0, () => clock.now).report()).toMatchObject({ source: 'snapshot', stale: false, lastSuccessAt: null });
});
