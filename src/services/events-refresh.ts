import type { DataSource } from 'typeorm';
import { EventRefreshEntity } from '../db/entities/event-refresh.entity';
import { addDays } from '../common/dates';
import type { ServiceClock } from '../common/clock';
import { AppError } from '../errors';
import type { ServiceEvent } from '../events/event';
import type { EventLog } from '../events/event-log';
import { eventTimestamp, predictionEvent, stageChangedEvent, stageScheduledEvent, thresholdEvent } from '../events/payloads';
import { predictionEvents } from '../events/rules';
import { readInPages } from '../db/rows-in-pages';
import type { Logger } from '../logger';
import { activeThresholdTargets, evaluateThresholds } from './alert-evaluation';
import type { ModelService } from './model.service';
import { recordSnapshots } from './prediction-history';
import { forecastRows, recordForecasts } from './forecasts-of-record';
import type { PredictionResult } from './prediction-result';
import type { PredictionService } from './prediction.service';
import { scheduledSightings } from './scheduled-sightings';
import { stageRecords } from './stage-records';

const STATE_ROW = 'events';
/** pg_advisory_xact_lock key: one refresh at a time across every instance on one PostgreSQL */
const ADVISORY_LOCK_KEY = 74_110_010;

export interface RefreshReport {
  /** false when there was nothing to do: no data or model yet, or this day, data and model were refreshed already */
  ran: boolean;
  serviceDay: string;
  /** bills whose nowcast was computed and compared */
  bills: number;
  events: ServiceEvent[];
  durationMs: number;
}

/** Running totals for /metrics. */
export interface RefreshStatistics {
  runs: number;
  seconds: number;
  lastSeconds: number;
  eventsByType: Record<string, number>;
}

/** What the refresh reads its nowcasts from: the served data and the serving model. */
export interface RefreshSources {
  predictions: PredictionService;
  models: ModelService;
}

export interface RefreshOptions {
  /** PostgreSQL: take the advisory lock (PGlite is one process, where the in-process queue suffices) */
  postgres: boolean;
  /** where the events go: the event log and sinks in the refresh's transaction (a sink that throws rolls it back), the bus after */
  events: EventLog;
  logger: Logger;
  now?: () => Date;
}

/**
 * The events refresh: recomputes the day's nowcasts of the bills that can still change (live as of
 * the day, ending since the last refresh, or on a watchlist), compares each with its stored
 * snapshots, stores the new snapshot and the day's forecasts of record (forecasts-of-record.ts),
 * evaluates every active alert threshold, and records the
 * events of the rules (src/events/rules.ts), the stage records first sitting since the last
 * refreshed day or first seen since it having sat shortly before (src/services/stage-records.ts), the
 * scheduled sittings first seen since and the thresholds that fired, all in
 * one transaction with the sinks' writes. After the commit the events go to the bus. Runs when
 * bill data changes (sync, replay) and when the service's day advances; one at a time in a
 * process, and across processes on PostgreSQL.
 */
export class EventRefresh {
  private queue: Promise<unknown> = Promise.resolve();
  private lastSeen = '';
  readonly statistics: RefreshStatistics = { runs: 0, seconds: 0, lastSeconds: 0, eventsByType: {} };
  private readonly predictions: PredictionService;
  private readonly models: ModelService;

  constructor(
    private readonly dataSource: DataSource,
    sources: RefreshSources,
    private readonly clock: ServiceClock,
    private readonly options: RefreshOptions,
  ) {
    ({ predictions: this.predictions, models: this.models } = sources);
  }

  /**
   * Refreshes for the service's day (or `day`); queued behind a refresh in progress. With
   * `whileToday`, a run whose day is no longer the service's day when its turn comes (a replay
   * moved on meanwhile) does nothing: it must not take the record back to an earlier day.
   */
  run(day: string = this.clock.today(), { whileToday = false } = {}): Promise<RefreshReport> {
    const run = this.queue.then(() => (whileToday && day !== this.clock.today() ? { ran: false, serviceDay: day, bills: 0, events: [], durationMs: 0 } : this.runOnce(day)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs the refresh when the service's day, the data state or the model differs from what this
   * process last refreshed on: what the server's periodic tick calls (cheap when nothing moved).
   */
  async runIfDue(): Promise<RefreshReport | null> {
    const { state } = await this.predictions.checkDataState();
    const key = `${this.clock.today()}|${state}|${this.models.activeVersion()?.id ?? ''}`;
    if (!state || !this.models.activeVersion() || key === this.lastSeen) return null;
    const report = await this.run(this.clock.today(), { whileToday: true });
    this.lastSeen = key;
    return report;
  }

  /** Why a refresh cannot run yet (no data, no model), or null when it can. */
  async notReady(): Promise<string | null> {
    if (!(await this.predictions.checkDataState()).state) return 'no bill data has been synced yet';
    if (!this.models.activeVersion()) return 'no model version is serving yet';
    return null;
  }

  /** Resolves when no refresh is queued or running. */
  async idle(): Promise<void> {
    await this.queue;
  }

  private async runOnce(day: string): Promise<RefreshReport> {
    const started = performance.now();
    const report: RefreshReport = { ran: false, serviceDay: day, bills: 0, events: [], durationMs: 0 };
    const { state: dataState } = await this.predictions.checkDataState();
    const model = this.models.activeVersion();
    if (!dataState || !model) return report;
    const done = (state: EventRefreshEntity | null) => state?.serviceDay === day && state.dataState === dataState && state.modelVersion === model.id;
    const last = await this.dataSource.getRepository(EventRefreshEntity).findOneBy({ name: STATE_ROW });
    if (done(last)) return report;

    // after a gap of several days, the bills that ended during it get their last snapshot too
    const nowcasts = await this.nowcasts(day, sinceLastRefresh(last, day), last?.refreshedAt ?? null);
    const now = this.options.now?.() ?? new Date();
    const timestamp = eventTimestamp(day, now);
    const committed = await this.dataSource.transaction(async (manager) => {
      if (this.options.postgres) await manager.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK_KEY]);
      // read again under the lock: another instance may have done this refresh meanwhile
      const state = await manager.findOneBy(EventRefreshEntity, { name: STATE_ROW });
      if (done(state)) return null;
      const sameDay = state?.serviceDay === day;
      const events: ServiceEvent[] = (await stageRecords(manager, sinceLastRefresh(state, day), day, state?.serviceDay ?? null)).map((s) => stageChangedEvent(s, timestamp));
      for (const sighting of await scheduledSightings(manager, day, state?.serviceDay ?? null)) events.push(stageScheduledEvent(sighting, timestamp));
      const histories = await recordSnapshots(manager, nowcasts, { includeToday: sameDay });
      // the day's forecasts of record: the serving model's, published for the service's day; a replayed day was never published
      if (!this.clock.replayed()) await recordForecasts(manager, forecastRows(nowcasts.filter((n) => n.model.version === model.id), 'live'));
      for (const n of nowcasts) {
        const { earlier, points } = histories.get(n.billId)!;
        for (const type of predictionEvents(points)) events.push(predictionEvent(type, n, earlier[earlier.length - 1], timestamp));
      }
      const targets = await activeThresholdTargets(manager);
      const triggers = await evaluateThresholds(manager, targets, new Map(nowcasts.map((n) => [n.billId, n])), histories, 'scheduled', new Date(timestamp));
      events.push(...triggers.map((t) => thresholdEvent(t, timestamp)));

      await this.options.events.record(manager, events, day);
      await manager.upsert(EventRefreshEntity, { name: STATE_ROW, serviceDay: day, dataState, modelVersion: model.id, refreshedAt: now }, ['name']);
      return events;
    });
    if (!committed) return report;
    this.options.events.publish(committed);

    const seconds = (performance.now() - started) / 1000;
    this.statistics.runs += 1;
    this.statistics.seconds += seconds;
    this.statistics.lastSeconds = seconds;
    for (const e of committed) this.statistics.eventsByType[e.type] = (this.statistics.eventsByType[e.type] ?? 0) + 1;
    Object.assign(report, { ran: true, bills: nowcasts.length, events: committed, durationMs: seconds * 1000 });
    this.options.logger.info({ serviceDay: day, bills: report.bills, events: committed.length, ms: Math.round(report.durationMs) }, 'events refresh');
    return report;
  }

  /**
   * The day's nowcasts of the bills that can still change: introduced by the day and not settled
   * before `since` (enacted, withdrawn, or every session of theirs over), every watched bill
   * (thresholds watch them), and the bills already followed that were rewritten since the last
   * refresh (`changedAfter`): a bill learned late to have ended, as when a sync infers that its
   * session ended weeks ago (src/ingest/session-ends.ts), still gets its last snapshot and events.
   */
  private async nowcasts(day: string, since: string, changedAfter: Date | null): Promise<PredictionResult[]> {
    const ids = new Set<number>();
    // every bill is tested, a page at a time: one statement over all of them holds the embedded database's thread
    await readInPages<{ id: number; due: boolean }>(
      this.dataSource,
      'bill b',
      `id, (b.introduced_date IS NULL OR b.introduced_date <= $2)
         AND (b.outcome = 'pending' OR coalesce(b.royal_assent_date, b.withdrawn_date, (SELECT max(s.end_date) FROM parliamentary_session s WHERE s.id = ANY(b.session_ids)), '9999-12-31') >= $3
              OR (b.ingested_at > $4 AND EXISTS (SELECT 1 FROM prediction_snapshot p WHERE p.bill_id = b.id))) AS due`,
      (rows) => rows.forEach((r) => r.due && ids.add(r.id)),
      [day, since, changedAfter],
    );
    for (const { bill_id } of (await this.dataSource.query('SELECT DISTINCT bill_id FROM watchlist_bill')) as { bill_id: number }[]) ids.add(bill_id);
    const results = await this.predictions.nowcasts([...ids].sort((a, b) => a - b), day);
    return results.filter((r): r is PredictionResult => !(r instanceof AppError));
  }
}

/**
 * The last refreshed day, when it is before `day`: what happened after it is news. Else (the first
 * refresh, the same day again, or a day gone back as in a replay) the day before.
 */
const sinceLastRefresh = (last: EventRefreshEntity | null, day: string) => (last && last.serviceDay < day ? last.serviceDay : addDays(day, -1));
