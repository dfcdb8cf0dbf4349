import { type DataSource, type EntityManager, In } from 'typeorm';
import { AlertArmStateEntity } from '../db/entities/alert-arm-state.entity';
import { AlertThresholdEntity } from '../db/entities/alert-threshold.entity';
import { AlertTriggerEntity } from '../db/entities/alert-trigger.entity';
import { AppError } from '../errors';
import type { EventLog } from '../events/event-log';
import { eventTimestamp, thresholdEvent } from '../events/payloads';
import type { PredictionResult } from './prediction-result';
import type { PredictionService } from './prediction.service';
import { type PredictionPoint, spikeRise } from '../events/prediction-point';
import { type BillHistory, recordSnapshots } from './prediction-history';
import type { WatchlistService } from './watchlist.service';
import { type AlertCheckSource, type AlertType, PRO_ALERT_TYPES, type Tier } from '../vocabulary';

/*
 * The evaluation of alert thresholds against today's nowcasts: a threshold fires for a bill when
 * its condition becomes true, stays quiet while it holds, and re-arms when it becomes false.
 * Triggers are the single record events are made from. The thresholds themselves are
 * src/services/alert.service.ts's.
 */

/** Pilot: thresholds per watchlist; Pro: unlimited. */
export const PILOT_THRESHOLDS_PER_WATCHLIST = 5;
/** Types only Pro may have: they fire on a rise of at least the threshold. */
export const PRO_ONLY: ReadonlySet<AlertType> = new Set(PRO_ALERT_TYPES);
/** How many recent snapshots a trend looks back over. */
export const TREND_WINDOW = 5;

export interface CheckResult {
  checkedAt: Date;
  /** active thresholds evaluated */
  thresholdsChecked: number;
  billsChecked: number;
  /** bills not evaluated because the daily prediction limit was reached */
  billsBlocked: number[];
  triggered: AlertTriggerEntity[];
}

/** A threshold with the bills it watches: its own bill, or every bill of its watchlist. */
export interface ThresholdTarget {
  threshold: AlertThresholdEntity;
  bills: number[];
}

/**
 * What a check may spend: one prediction per bill it evaluates, in order, as far as the daily
 * limit allows; the rest come back as 429 errors (a request's or an account's RequestQuota).
 */
export interface PredictionAllowance {
  /** one result per bill; charged the way the caller's door charges (see RequestQuota.chargePredictions) */
  chargePredictions<T>(billIds: readonly number[], results: readonly (T | AppError)[]): Promise<(T | AppError)[]>;
}

/**
 * Which thresholds may fire on a tier, and why the others may not: Pro-only types need Pro, and
 * below Pro only the oldest PILOT_THRESHOLDS_PER_WATCHLIST of each watchlist fire (a downgrade
 * keeps the rest, inactive, until an upgrade). `thresholds` in id order.
 */
export function thresholdActivity(thresholds: readonly AlertThresholdEntity[], tier: Tier): Map<number, string | null> {
  const activity = new Map<number, string | null>();
  const activePerWatchlist = new Map<number, number>();
  for (const t of thresholds) {
    if (tier === 'pro') activity.set(t.id, null);
    else if (PRO_ONLY.has(t.alertType)) activity.set(t.id, `${t.alertType} alerts need the pro tier`);
    else {
      const rank = activePerWatchlist.get(t.watchlistId) ?? 0;
      activePerWatchlist.set(t.watchlistId, rank + 1);
      activity.set(t.id, rank < PILOT_THRESHOLDS_PER_WATCHLIST ? null : `the ${tier} tier allows ${PILOT_THRESHOLDS_PER_WATCHLIST} active alert thresholds per watchlist: the oldest ${PILOT_THRESHOLDS_PER_WATCHLIST} fire`);
    }
  }
  return activity;
}

/**
 * Whether an account's thresholds fire, on demand (the alert check: a user's, or the hourly one
 * for Pro accounts), charged one prediction per bill evaluated. The events refresh evaluates every
 * active threshold itself, with activeThresholdTargets and evaluateThresholds below.
 */
export class AlertEvaluation {
  constructor(
    private readonly dataSource: DataSource,
    private readonly watchlists: WatchlistService,
    private readonly predictions: PredictionService,
    /** where the thresholds a check fires are emitted as `prediction.crossed_threshold` events, as the refresh emits its own */
    private readonly events?: EventLog,
  ) {}

  /**
   * Evaluates the account's active thresholds against today's nowcasts and records what fires.
   * Each bill evaluated costs one prediction from `allowance`, like a batch item (on the website,
   * once per bill per day, like a bill's page): past the daily limit the remaining bills are
   * reported blocked and not evaluated. What fires is emitted as `prediction.crossed_threshold`
   * events in the same transaction (event log, webhook outbox), then published to subscribers.
   */
  async check(accountId: number, tier: Tier, source: AlertCheckSource, allowance: PredictionAllowance, now: Date = new Date()): Promise<CheckResult> {
    const all = await this.dataSource.getRepository(AlertThresholdEntity).find({ where: { accountId }, relations: { watchlist: true }, order: { id: 'ASC' } });
    const activity = thresholdActivity(all, tier);
    const thresholds = all.filter((t) => activity.get(t.id) === null);
    // the watchlist's own order of bills: which are charged first, and blocked past the limit
    const billsOf = new Map<number, number[]>();
    for (const t of thresholds) if (!billsOf.has(t.watchlistId)) billsOf.set(t.watchlistId, await this.watchlists.billIds(t.watchlistId));
    const targets: ThresholdTarget[] = thresholds.map((t) => ({ threshold: t, bills: t.billId !== null ? [t.billId] : billsOf.get(t.watchlistId)! }));
    const billIds = [...new Set(targets.flatMap((t) => t.bills))];
    const today = this.predictions.referenceDate(null);
    // on the service's day, as its events are: a check on the 2021-12-31 snapshot fired on 2021-12-31, not on the real date
    const at = new Date(eventTimestamp(today, now));
    const results = billIds.length ? await allowance.chargePredictions(billIds, await this.predictions.nowcasts(billIds, today)) : [];
    const nowcast = new Map<number, PredictionResult>();
    const billsBlocked: number[] = [];
    results.forEach((r, i) => (!(r instanceof AppError) ? nowcast.set(billIds[i], r) : r.code === 'RATE_LIMITED' && billsBlocked.push(billIds[i])));

    // a threshold fired here is disarmed and the refresh will not fire it again: its event goes out from here
    const { triggered, events } = await this.dataSource.transaction(async (manager) => {
      const histories = await recordSnapshots(manager, [...nowcast.values()], { includeToday: true });
      const fired = await evaluateThresholds(manager, targets, nowcast, histories, source, at);
      const emitted = fired.map((t) => thresholdEvent(t, at.toISOString()));
      await this.events?.record(manager, emitted, today);
      return { triggered: fired, events: emitted };
    });
    this.events?.publish(events);
    return { checkedAt: at, thresholdsChecked: thresholds.length, billsChecked: nowcast.size, billsBlocked, triggered };
  }
}

/**
 * Every active threshold of every account that may have one, with the bills it watches: what
 * the events refresh evaluates each time it runs.
 */
export async function activeThresholdTargets(manager: EntityManager): Promise<ThresholdTarget[]> {
  const rows = (await manager.query(`SELECT t.id, a.tier FROM alert_threshold t JOIN account a ON a.id = t.account_id WHERE a.tier <> 'free' ORDER BY t.id`)) as { id: number; tier: Tier }[];
  if (!rows.length) return [];
  const all = await manager.find(AlertThresholdEntity, { where: { id: In(rows.map((r) => r.id)) }, relations: { watchlist: true }, order: { id: 'ASC' } });
  const tierOf = new Map(rows.map((r) => [r.id, r.tier]));
  const byAccount = new Map<number, AlertThresholdEntity[]>();
  for (const t of all) byAccount.set(t.accountId, [...(byAccount.get(t.accountId) ?? []), t]);
  const active = [...byAccount.values()].flatMap((own) => {
    const activity = thresholdActivity(own, tierOf.get(own[0].id)!);
    return own.filter((t) => activity.get(t.id) === null);
  });
  return targetsOf(active, manager);
}

/** The bills of each threshold, every watchlist's read in one query (the refresh charges nothing, so order does not matter). */
async function targetsOf(thresholds: readonly AlertThresholdEntity[], manager: EntityManager): Promise<ThresholdTarget[]> {
  const billsOf = new Map<number, number[]>();
  const watchlists = [...new Set(thresholds.filter((t) => t.billId === null).map((t) => t.watchlistId))];
  if (watchlists.length) {
    const rows = (await manager.query('SELECT watchlist_id, bill_id FROM watchlist_bill WHERE watchlist_id = ANY($1) ', [watchlists])) as { watchlist_id: number; bill_id: number }[];
    for (const id of watchlists) billsOf.set(id, []);
    for (const r of rows) billsOf.get(r.watchlist_id)!.push(r.bill_id);
  }
  return thresholds.map((threshold) => ({ threshold, bills: threshold.billId !== null ? [threshold.billId] : billsOf.get(threshold.watchlistId)! }));
}

/**
 * Evaluates thresholds against today's nowcasts and the bills' snapshot histories (ending with
 * today's), recording in `manager`'s transaction what fires and which thresholds re-arm.
 */
export async function evaluateThresholds(manager: EntityManager, targets: readonly ThresholdTarget[], nowcast: ReadonlyMap<number, PredictionResult>, histories: ReadonlyMap<number, BillHistory>, source: AlertCheckSource, now: Date): Promise<AlertTriggerEntity[]> {
  const triggered: AlertTriggerEntity[] = [];
  if (!targets.length) return triggered;
  // every arm state at once: one query, not one per threshold and bill
  const disarmed = new Set(
    ((await manager.query('SELECT threshold_id, bill_id FROM alert_arm_state WHERE armed = false AND threshold_id = ANY($1)', [targets.map((t) => t.threshold.id)])) as { threshold_id: number; bill_id: number }[]).map(
      (r) => `${r.threshold_id}:${r.bill_id}`,
    ),
  );
  for (const { threshold, bills } of targets) {
    for (const billId of bills) {
      const prediction = nowcast.get(billId);
      if (!prediction) continue;
      const value = metric(threshold.alertType, prediction, histories.get(billId)?.points ?? []);
      const holds = conditionHolds(threshold, value);
      const armed = !disarmed.has(`${threshold.id}:${billId}`);
      if (holds && armed) {
        const trigger = await manager.save(AlertTriggerEntity, {
          accountId: threshold.accountId,
          thresholdId: threshold.id,
          watchlistId: threshold.watchlistId,
          watchlistName: threshold.watchlist!.name,
          billId,
          alertType: threshold.alertType,
          comparison: threshold.comparison,
          thresholdValue: threshold.thresholdValue,
          valueSeen: value!,
          referenceDate: prediction.referenceDate,
          triggeredAt: now,
          source,
        });
        triggered.push(trigger);
        await manager.update(AlertThresholdEntity, { id: threshold.id }, { lastTriggeredAt: now });
      }
      if (holds === armed) await manager.upsert(AlertArmStateEntity, { thresholdId: threshold.id, billId, armed: !holds }, ['thresholdId', 'billId']);
    }
  }
  return triggered;
}

/** Trend and spike fire on a rise of at least the threshold; the others compare strictly, as their comparison says. */
function conditionHolds(threshold: AlertThresholdEntity, value: number | null): boolean {
  if (value === null) return false;
  if (PRO_ONLY.has(threshold.alertType)) return value >= threshold.thresholdValue;
  return threshold.comparison === 'less_than' ? value < threshold.thresholdValue : value > threshold.thresholdValue;
}

/** The number a threshold compares: days, a probability, or for trend and spike a rise (see src/events/prediction-point.ts). */
function metric(type: AlertType, p: PredictionResult, points: readonly PredictionPoint[]): number | null {
  switch (type) {
    case 'timeline_eta':
      return p.timelineEtaDays;
    case 'probability':
      return p.probabilities.royal_assent;
    case 'trend': {
      // rise of the Royal Assent probability from the oldest of the recent snapshots to today's
      const recent = points.slice(-TREND_WINDOW);
      return recent.length >= 2 ? recent[recent.length - 1].royalAssent - recent[0].royalAssent : null;
    }
    case 'spike':
      // the same definition as the prediction.probability_spike event, with the threshold's own size
      return points.length >= 2 ? spikeRise(points) : null;
    default:
      return p.probabilities[type];
  }
}
