import { Writable } from 'node:stream';
import { RetentionJob, type RetentionRun } from '../../src/jobs/retention';
import { DELIVERIES_KEPT_PER_ENDPOINT, retentionRules, SNAPSHOTS_KEPT_PER_BILL } from '../../src/jobs/retention-rules';
import { createLogger } from '../../src/logger';
import { HISTORY_DEPTH } from '../../src/services/prediction-history';
import { type EventsFixture, REPLAY_BILL_IDS, startEventsFixture } from '../support/events-fixture';
import { usingPostgres } from '../support/test-database';

/**
 * The retention job removes what no reader needs (old finished deliveries, old events, snapshots
 * beyond each bill's newest, past quota days, ended sessions) in bounded deletes, and every reader
 * answers as before: the deliveries listing, recover, the refresh's spike and trend, sessions.
 */
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const DAY = '2021-11-16';
const NOW = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 30 * MINUTE_MS);
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const BATCH = 7;

let f: EventsFixture;
let accountId: number;
const logLines: { msg: string; removed?: Record<string, number> }[] = [];
/** rows removed by each delete the job ran in the current test */
let statementCounts: number[] = [];
let afterDelete: () => void = () => undefined;

beforeAll(async () => {
  f = await startEventsFixture({ day: DAY, webhookUrlPolicy: { allowPrivate: true } });
  accountId = (await f.services.accounts.create('retention@example.com', 'pro')).id;
  const query = f.db.dataSource.query.bind(f.db.dataSource);
  // every argument passed on: a transaction's manager.query calls this with its own query runner
  jest.spyOn(f.db.dataSource, 'query').mockImplementation(async (...args: Parameters<typeof query>) => {
    const [sql] = args;
    const rows = await query(...args);
    if (sql.startsWith('WITH gone AS')) {
      statementCounts.push((rows as { removed: number }[])[0].removed);
      afterDelete();
    }
    return rows;
  });
}, 120_000);

afterAll(async () => {
  await f?.close();
});

/** A job whose clock is `at` (and the service's day `serviceDay`), deleting `BATCH` rows a statement, that records how many each delete removed. */
function job(at: Date, serviceDay = DAY): RetentionJob {
  const logger = createLogger('info', new Writable({ write: (chunk, _e, done) => (logLines.push(JSON.parse(String(chunk))), done()) }) as never);
  return new RetentionJob(f.db.dataSource, logger, { postgres: usingPostgres(), retentionDays: 90, serviceDay: () => serviceDay, now: () => at, batchRows: BATCH });
}

afterEach(() => {
  statementCounts = [];
  afterDelete = () => undefined;
});

/** `count` deliveries of one endpoint, the i-th created `age` + i minutes ago. */
async function deliveries(endpointId: number, tag: string, count: number, status: string, age: number, lastAttempt?: Date) {
  await f.db.dataSource.query(
    `INSERT INTO webhook_delivery (endpoint_id, event_id, event_type, body, status, attempt, next_attempt_at, created_at, last_attempt_at)
     SELECT $1, $2 || i, 'bill.stage_changed', '{}', $3, 1, $4::timestamptz + interval '1 day', $4::timestamptz - i * interval '1 minute', coalesce($5, $4::timestamptz - i * interval '1 minute')
       FROM generate_series(1, $6::int) i`,
    [endpointId, `evt_${tag}_`, status, ago(age), lastAttempt ?? null, count],
  );
}

const count = async (sql: string, params: unknown[] = []) => ((await f.db.dataSource.query(`SELECT count(*)::int AS n FROM ${sql}`, params)) as { n: number }[])[0].n;

describe('webhook deliveries', () => {
  it('removes finished deliveries older than RETENTION_DAYS beyond each endpoint’s newest 100, in deletes of at most the batch; the listing and recover answer as before', async () => {
    const busy = (await f.services.webhooks.create(accountId, 'pro', { url: 'http://127.0.0.1:9/busy', events: ['bill.stage_changed'] })).endpoint.id;
    const quiet = (await f.services.webhooks.create(accountId, 'pro', { url: 'http://127.0.0.1:9/quiet', events: ['bill.stage_changed'] })).endpoint.id;
    await deliveries(busy, 'recent', 20, 'delivered', 0);
    await deliveries(busy, 'recent_failed', 5, 'failed', 10 * DAY_MS);
    await deliveries(busy, 'old', 105, 'delivered', 100 * DAY_MS);
    await deliveries(busy, 'old_failed', 10, 'failed', 120 * DAY_MS);
    await deliveries(busy, 'old_pending', 5, 'pending', 150 * DAY_MS);
    await deliveries(busy, 'old_retried', 1, 'failed', 160 * DAY_MS, ago(DAY_MS));
    await deliveries(quiet, 'quiet', 3, 'delivered', 200 * DAY_MS);
    const listed = async (id: number) => (await f.services.webhooks.deliveries(accountId, id, 100)).map((d) => [d.eventId, d.status]);
    const busyBefore = await listed(busy);
    const quietBefore = await listed(quiet);

    const run = await job(NOW).runDue();

    // the newest 100 of the busy endpoint are the 25 recent and 75 of the old delivered: 30 old delivered and 10 old failed go
    expect(run.removed.webhook_delivery).toBe(40);
    expect(statementCounts.every((n) => n <= BATCH)).toBe(true);
    expect(statementCounts.length).toBeGreaterThanOrEqual(Math.ceil(40 / BATCH));
    expect(await listed(busy)).toEqual(busyBefore);
    expect(await listed(quiet)).toEqual(quietBefore);
    expect(await count(`webhook_delivery WHERE endpoint_id = $1 AND status = 'pending'`, [busy])).toBe(5);
    expect(await count(`webhook_delivery WHERE event_id = 'evt_old_retried_1'`)).toBe(1);
    expect(await count(`webhook_delivery WHERE endpoint_id = $1`, [busy])).toBe(DELIVERIES_KEPT_PER_ENDPOINT + 5 + 1);
    // the dashboard's widest re-send (30 days) finds every failed delivery it found before
    expect(await f.services.webhooks.recover(accountId, busy, ago(30 * DAY_MS))).toBe(5);
  });
});

describe('prediction snapshots and the event log', () => {
  it('keeps each bill’s newest snapshots, so the next refresh still sees the spike and the trend', async () => {
    const nowcasts = await Promise.all(REPLAY_BILL_IDS.map((id) => f.services.predictions.nowcast(id, DAY)));
    const bill = nowcasts.filter((n) => n.status === 'live').sort((a, b) => b.probabilities.royal_assent - a.probabilities.royal_assent)[0];
    const v = bill.probabilities.royal_assent;
    const next = bill.probabilities.next_stage_30d;
    expect(v).toBeGreaterThan(0.2);
    const snapshot = (referenceDate: string, royalAssent: number) =>
      f.db.dataSource.query(
        `INSERT INTO prediction_snapshot (bill_id, reference_date, model_version, royal_assent, next_stage30d, timeline_eta_days, taken_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [bill.billId, referenceDate, bill.model.version, royalAssent, next, bill.timelineEtaDays, ago(200 * DAY_MS)],
      );
    // 60 old, high snapshots long before, then three rising ones the day's nowcast tops: a spike and a trend begin today
    for (let i = 60; i >= 1; i--) await snapshot(utcDay(Date.parse(DAY) - (140 + i) * DAY_MS), 0.99);
    for (const [days, value] of [[3, v - 0.16], [2, v - 0.1], [1, v - 0.05]] as const) await snapshot(utcDay(Date.parse(DAY) - days * DAY_MS), value);
    const newest = async () =>
      f.db.dataSource.query(`SELECT id FROM prediction_snapshot WHERE bill_id = $1 ORDER BY reference_date DESC, id DESC LIMIT $2`, [bill.billId, HISTORY_DEPTH]);
    const compared = await newest();

    const run = await job(new Date(NOW.getTime() + 3_600_000)).runDue();

    expect(run.removed.prediction_snapshot).toBe(60 + 3 - SNAPSHOTS_KEPT_PER_BILL);
    expect(await newest()).toEqual(compared);
    const report = await f.services.events.refresh.run(DAY);
    const types = report.events.filter((e) => e.data.bill_id === bill.billId).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['prediction.probability_spike', 'prediction.trending_up', 'prediction.updated']));
  });

  it('removes events recorded more than RETENTION_DAYS ago, except those of the day the refresh last ran for', async () => {
    const event = (id: string, serviceDay: string, recordedAt: Date) =>
      f.db.dataSource.query(
        `INSERT INTO service_event (id, type, bill_id, account_id, service_day, occurred_at, data, recorded_at) VALUES ($1, 'bill.stage_changed', 2900, NULL, $2, $3, '{"bill_id":2900,"stage_record_id":1}', $3)`,
        [id, serviceDay, recordedAt],
      );
    await event('evt_retention_old', '2021-01-04', ago(100 * DAY_MS));
    await event('evt_retention_old_of_refreshed_day', DAY, ago(100 * DAY_MS));
    await event('evt_retention_recent', '2021-01-04', ago(89 * DAY_MS));
    const refreshedDay = ((await f.db.dataSource.query(`SELECT service_day::text AS day FROM event_refresh`)) as { day: string }[])[0].day;
    expect(refreshedDay).toBe(DAY);

    const run = await job(new Date(NOW.getTime() + 2 * 3_600_000)).runDue();

    expect(run.removed.service_event).toBe(1);
    const left = ((await f.db.dataSource.query(`SELECT id FROM service_event WHERE id LIKE 'evt_retention_%' ORDER BY id`)) as { id: string }[]).map((r) => r.id);
    expect(left).toEqual(['evt_retention_old_of_refreshed_day', 'evt_retention_recent']);
  });
});

describe('quota days, website bill views and sessions', () => {
  it('removes past quota days beyond a month, bill views before yesterday and sessions ended over an hour ago; live sessions still admit', async () => {
    const at = new Date(NOW.getTime() + 3 * 3_600_000);
    const before = (ms: number) => new Date(at.getTime() - ms);
    const today = utcDay(at.getTime());
    const daysBefore = (days: number) => utcDay(at.getTime() - days * DAY_MS);
    for (const days of [0, 30, 31, 100]) {
      await f.db.dataSource.query(`INSERT INTO quota_counter (account_id, day, kind, used, last_grant) VALUES ($1, $2, 'calls', 5, 1)`, [accountId, daysBefore(days)]);
    }
    for (const days of [0, 1, 2, 40]) await f.db.dataSource.query(`INSERT INTO website_bill_view (account_id, day, bill_id) VALUES ($1, $2, 2900)`, [accountId, daysBefore(days)]);
    await f.services.sessions.signUp('sessions@example.com', 'a long enough password');
    const signedUp = await f.services.sessions.logIn('sessions@example.com', 'a long enough password', undefined);
    const owner = signedUp.account.id;
    const session = (tag: string, expiresAt: Date, lastSeenAt: Date) =>
      f.db.dataSource.query(`INSERT INTO dashboard_session (account_id, token_hash, last_seen_at, expires_at) VALUES ($1, $2, $3, $4)`, [owner, tag, lastSeenAt, expiresAt]);
    await session('expired-2h', before(2 * 3_600_000), before(3 * 3_600_000));
    await session('expired-10min', before(10 * MINUTE_MS), before(3 * 3_600_000));
    await session('idle-26h', before(-5 * DAY_MS), before(26 * 3_600_000));

    const run: RetentionRun = await job(at).runDue();

    expect(run.removed).toMatchObject({ quota_counter: 2, website_bill_view: 2, dashboard_session: 2 });
    const days = async (table: string) => ((await f.db.dataSource.query(`SELECT day::text AS day FROM ${table} WHERE account_id = $1 ORDER BY day DESC`, [accountId])) as { day: string }[]).map((r) => r.day);
    expect(await days('quota_counter')).toEqual([today, daysBefore(30)]);
    expect(await days('website_bill_view')).toEqual([today, daysBefore(1)]);
    expect(((await f.db.dataSource.query(`SELECT token_hash FROM dashboard_session WHERE account_id = $1 AND token_hash LIKE '%-%' ORDER BY 1`, [owner])) as { token_hash: string }[]).map((r) => r.token_hash)).toEqual(['expired-10min']);
    expect(await f.services.sessions.authenticate(signedUp.session.token)).toMatchObject({ accountId: owner, credential: 'session' });
  });
});

describe('the job', () => {
  it('runs once an hour whatever the number of calls, and logs what it removed per table', async () => {
    logLines.length = 0;
    const at = new Date(NOW.getTime() + 4 * 3_600_000);
    const first = job(at);
    expect((await first.runDue()).ran).toBe(true);
    expect((await job(at).runDue()).ran).toBe(false);
    const line = logLines.find((l) => l.msg === 'retention');
    expect(Object.keys(line?.removed ?? {})).toEqual(retentionRules(90, () => DAY).map((r) => r.table));
  });

  it('stops between two deletes when the server shuts down', async () => {
    const endpoint = (await f.services.webhooks.create(accountId, 'pro', { url: 'http://127.0.0.1:9/stop', events: ['bill.stage_changed'] })).endpoint.id;
    await deliveries(endpoint, 'stop', 100 + 3 * BATCH, 'delivered', 100 * DAY_MS);
    const retention = job(new Date(NOW.getTime() + 5 * 3_600_000));
    afterDelete = () => void retention.stop();
    const run = await retention.runDue();
    expect(run.removed.webhook_delivery).toBe(BATCH);
    expect(statementCounts).toEqual([BATCH]);
    expect(await count(`webhook_delivery WHERE endpoint_id = $1`, [endpoint])).toBe(100 + 2 * BATCH);
  });
});

// run last: the job claims each hour once, and this one's hour comes after the others'
describe('snapshots when the service’s day lies behind stored ones', () => {
  it('keeps the newest snapshots up to the service’s day when later ones are stored (a day pinned after a replay went further)', async () => {
    const billId = REPLAY_BILL_IDS[1];
    await f.db.dataSource.query('DELETE FROM prediction_snapshot WHERE bill_id = $1', [billId]);
    const snapshot = (referenceDate: string) =>
      f.db.dataSource.query(
        `INSERT INTO prediction_snapshot (bill_id, reference_date, model_version, royal_assent, next_stage30d, timeline_eta_days, taken_at) VALUES ($1, $2, 1, 0.5, 0.5, NULL, $3)`,
        [billId, referenceDate, ago(200 * DAY_MS)],
      );
    // 30 snapshots up to the service's day, 45 after it, all taken long ago
    for (let i = 29; i >= 0; i--) await snapshot(utcDay(Date.parse(DAY) - i * DAY_MS));
    for (let i = 1; i <= 45; i++) await snapshot(utcDay(Date.parse(DAY) + i * DAY_MS));
    const upToTheDay = async () =>
      f.db.dataSource.query(`SELECT id FROM prediction_snapshot WHERE bill_id = $1 AND reference_date <= $2 ORDER BY reference_date DESC, id DESC LIMIT $3`, [billId, DAY, HISTORY_DEPTH]);
    const compared = await upToTheDay();
    expect(compared).toHaveLength(HISTORY_DEPTH);

    await job(new Date(NOW.getTime() + 6 * 3_600_000)).runDue();

    expect(await upToTheDay()).toEqual(compared);
    const [{ left }] = (await f.db.dataSource.query('SELECT count(*)::int AS left FROM prediction_snapshot WHERE bill_id = $1', [billId])) as { left: number }[];
    expect(left).toBe(75);
  });
});
