import type { DataSource } from 'typeorm';
import { SESSION_IDLE_MS } from '../services/session.service';
import { HISTORY_DEPTH } from '../services/prediction-history';
import { MAX_DELIVERIES_PAGE } from '../services/webhook.service';
import { mailRetentionRules } from './mail-retention-rules';
import { removed, type RetentionRule, untilShort } from './retention-rule';

/**
 * What the retention job (src/jobs/retention.ts) removes from each table that grows every day, and
 * why the rest is kept: every period is at least what a reader of the table looks at, with a margin.
 * Each rule is a series of bounded statements (at most `limit` rows each), so the embedded
 * database, which runs one statement at a time, is never held for long.
 *
 * Left alone: alert_trigger (the Pro alert history: listed and counted over its whole span, kept
 * when its watchlist goes; a row is written only when a threshold fires, and it is disarmed until
 * it stops holding), job_run and event_refresh (one row per job, rewritten in place), and
 * login_failure (pruned by its own store as the 15-minute window moves). webhook_attempt goes with
 * its delivery (ON DELETE CASCADE): a delivery listed shows every attempt.
 */

/** RETENTION_DAYS (its default and least value: src/config.ts) applies to deliveries, the event log and snapshots. */
/** Each endpoint's newest deliveries stay whatever their age: its listing shows up to this many, so it never shrinks. */
export const DELIVERIES_KEPT_PER_ENDPOINT = MAX_DELIVERIES_PAGE;
/** Each bill's newest snapshots stay whatever their age: the refresh and alert checks compare with the newest HISTORY_DEPTH (spike, trend, previous values); twice that as a margin. */
export const SNAPSHOTS_KEPT_PER_BILL = 2 * HISTORY_DEPTH;
/**
 * Quota counters are read only for the current UTC day (limits and the account page's usage); a
 * month of past days stays so an operator can still see what a user used when asked about a refusal.
 */
export const QUOTA_COUNTER_DAYS_KEPT = 31;
/** Website bill views are read only for the current UTC day; yesterday stays for requests that began before midnight. */
export const BILL_VIEW_DAYS_KEPT = 2;
/**
 * An ended session (past its lifetime, or idle for SESSION_IDLE_MS) never admits anyone again;
 * this margin covers another instance whose clock runs behind ours.
 */
export const SESSION_CLOCK_MARGIN_MS = 3_600_000;
/** Owners (endpoints, bills) whose newest rows one statement looks up: a bound on its work besides the rows it removes. */
const OWNERS_PER_STATEMENT = 500;

const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The ids of a table's rows (endpoints, bills) in chunks, ascending. */
async function* idChunks(db: DataSource, table: 'webhook_endpoint' | 'bill'): AsyncGenerator<number[]> {
  let after: number | null = null;
  for (;;) {
    const rows = (await db.query(`SELECT id FROM ${table} WHERE $1::int IS NULL OR id > $1 ORDER BY id LIMIT $2`, [after, OWNERS_PER_STATEMENT])) as { id: number }[];
    if (!rows.length) return;
    yield rows.map((r) => r.id);
    after = rows[rows.length - 1].id;
  }
}

const FINAL = `status IN ('delivered', 'failed')`;

/**
 * Deliveries in their final state (delivered, or given up and not recovered since) created and
 * last attempted more than RETENTION_DAYS ago, except each endpoint's newest 100. Pending rows
 * (due, retrying, claimed, or recovered) are never touched, and the status is checked again by the
 * delete itself, so a recovery that commits meanwhile keeps its row. `recover {since}` reaches back
 * RETENTION_DAYS. The 3-day disable rule reads the endpoint's failing_since, not these rows.
 */
const deliveries = (retentionDays: number): RetentionRule => ({
  table: 'webhook_delivery',
  async *batches(db, now, limit) {
    const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
    for await (const endpoints of idChunks(db, 'webhook_endpoint')) {
      yield* untilShort(limit, () =>
        removed(
          db,
          `DELETE FROM webhook_delivery WHERE id IN (
             SELECT d.id FROM webhook_endpoint e
             CROSS JOIN LATERAL (SELECT created_at, id FROM webhook_delivery WHERE endpoint_id = e.id ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1) newest
             JOIN webhook_delivery d ON d.endpoint_id = e.id AND (d.created_at, d.id) < (newest.created_at, newest.id)
             WHERE e.id = ANY($1) AND d.created_at < $3 AND d.${FINAL} AND (d.last_attempt_at IS NULL OR d.last_attempt_at < $3)
             LIMIT $4)
           AND ${FINAL}`,
          [endpoints, DELIVERIES_KEPT_PER_ENDPOINT - 1, cutoff, limit],
        ),
      );
    }
  },
});

/**
 * Events recorded more than RETENTION_DAYS ago. Nothing replays the log (a replay recomputes
 * from the stage history and snapshots; subscribers get events from the bus as they happen), but a
 * second refresh of the same service day reads that day's stage events so as not to report a stage
 * twice: the events of every day a refresh last ran for stay, whatever their age (with the shipped
 * snapshot, the service's day can stay the same for years).
 */
const events = (retentionDays: number): RetentionRule => ({
  table: 'service_event',
  async *batches(db, now, limit) {
    const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
    yield* untilShort(limit, () =>
      removed(
        db,
        `DELETE FROM service_event WHERE id IN (
           SELECT id FROM service_event e WHERE recorded_at < $1 AND NOT EXISTS (SELECT 1 FROM event_refresh r WHERE r.service_day = e.service_day)
           LIMIT $2)`,
        [cutoff, limit],
      ),
    );
  },
});

/**
 * Snapshots taken more than RETENTION_DAYS ago, except each bill's newest SNAPSHOTS_KEPT_PER_BILL
 * by day, and as many up to the service's day: the refresh and the alert checks compare with the
 * newest HISTORY_DEPTH up to that day, which may lie behind stored snapshots (a SERVICE_DATE pinned
 * after a replay went further), so that is unchanged. A replay back over days whose snapshots were
 * taken longer ago than RETENTION_DAYS starts from fewer earlier snapshots. The bill chart
 * recomputes its points and reads none.
 */
const snapshots = (retentionDays: number, serviceDay: () => string): RetentionRule => ({
  table: 'prediction_snapshot',
  async *batches(db, now, limit) {
    const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
    for await (const bills of idChunks(db, 'bill')) {
      // older than the bill's newest kept, and than its newest kept up to the service's day
      yield* untilShort(limit, () =>
        removed(
          db,
          `DELETE FROM prediction_snapshot WHERE id IN (
             SELECT s.id FROM bill b
             CROSS JOIN LATERAL (SELECT reference_date, id FROM prediction_snapshot WHERE bill_id = b.id ORDER BY reference_date DESC, id DESC OFFSET $2 LIMIT 1) newest
             CROSS JOIN LATERAL (SELECT reference_date, id FROM prediction_snapshot WHERE bill_id = b.id AND reference_date <= $5 ORDER BY reference_date DESC, id DESC OFFSET $2 LIMIT 1) newest_by_day
             JOIN prediction_snapshot s ON s.bill_id = b.id AND (s.reference_date, s.id) < (newest.reference_date, newest.id) AND (s.reference_date, s.id) < (newest_by_day.reference_date, newest_by_day.id)
             WHERE b.id = ANY($1) AND s.taken_at < $3
             LIMIT $4)`,
          [bills, SNAPSHOTS_KEPT_PER_BILL - 1, cutoff, limit, serviceDay()],
        ),
      );
    }
  },
});

/** Rows of a table kept per UTC day (`day`, a date), before the last `daysKept` days (today included); `key` names a row. */
const pastDays = (table: string, key: string, daysKept: number): RetentionRule => ({
  table,
  batches: (db, now, limit) =>
    untilShort(limit, () =>
      removed(db, `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE day < $1::date LIMIT $2)`, [utcDay(now.getTime() - (daysKept - 1) * DAY_MS), limit]),
    ),
});

const quotaCounters = pastDays('quota_counter', 'account_id, day, kind', QUOTA_COUNTER_DAYS_KEPT);
const billViews = pastDays('website_bill_view', 'account_id, day, bill_id', BILL_VIEW_DAYS_KEPT);

/** Sessions that ended (the check SessionService.authenticate makes), an hour past their end. */
const endedSessions: RetentionRule = {
  table: 'dashboard_session',
  batches: (db, now, limit) => {
    const before = now.getTime() - SESSION_CLOCK_MARGIN_MS;
    return untilShort(limit, () =>
      removed(
        db,
        `DELETE FROM dashboard_session WHERE id IN (SELECT id FROM dashboard_session WHERE expires_at <= $1 OR last_seen_at <= $2 LIMIT $3)`,
        [new Date(before), new Date(before - SESSION_IDLE_MS), limit],
      ),
    );
  },
};

/** Every rule, in the order the job runs them; `serviceDay`: the service's day (its clock's today), which the refresh reads snapshots up to. */
export const retentionRules = (retentionDays: number, serviceDay: () => string): RetentionRule[] => [
  deliveries(retentionDays),
  events(retentionDays),
  snapshots(retentionDays, serviceDay),
  quotaCounters,
  billViews,
  endedSessions,
  ...mailRetentionRules(retentionDays),
];
