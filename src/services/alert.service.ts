import { type DataSource, type EntityManager, In } from 'typeorm';
import { AlertArmStateEntity } from '../db/entities/alert-arm-state.entity';
import { AlertThresholdEntity } from '../db/entities/alert-threshold.entity';
import { AlertTriggerEntity } from '../db/entities/alert-trigger.entity';
import { AppError, badInput, notFound } from '../errors';
import type { EventLog } from '../events/event-log';
import { eventTimestamp, thresholdEvent } from '../events/payloads';
import type { PredictionResult } from './prediction-result';
import type { PredictionService } from './prediction.service';
import { type PredictionPoint, spikeRise } from '../events/prediction-point';
import { type BillHistory, recordSnapshots } from './prediction-history';
import type { WatchlistService } from './watchlist.service';
import { ALERT_TYPES, type AlertCheckSource, type AlertType, COMPARISONS, type Comparison, isOneOf, PRO_ALERT_TYPES, RISKS, type Tier } from '../vocabulary';

/** Pilot: thresholds per watchlist; Pro: unlimited. */
export const PILOT_THRESHOLDS_PER_WATCHLIST = 5;
const PRO_ONLY: ReadonlySet<AlertType> = new Set(PRO_ALERT_TYPES);
/** "alert when the risk exceeds the threshold" (4.4): these compare greater_than only. */
const RISK_TYPES: ReadonlySet<AlertType> = new Set(RISKS);
/** How many recent snapshots a trend looks back over. */
export const TREND_WINDOW = 5;

/** The comparison a type means when the request leaves it out (4.4: "alert when the risk exceeds the threshold"). */
export const DEFAULT_COMPARISON: Record<AlertType, Comparison> = {
  timeline_eta: 'less_than',
  probability: 'greater_than',
  trend: 'greater_than',
  spike: 'greater_than',
  stall_risk: 'greater_than',
  amendment_risk: 'greater_than',
  close_vote: 'greater_than',
  withdrawal_risk: 'greater_than',
};

export interface ThresholdInput {
  watchlistId: unknown;
  billId?: unknown;
  alertType: unknown;
  thresholdValue: unknown;
  comparison?: unknown;
}

export interface ThresholdView extends AlertThresholdEntity {
  /** false while the condition holds for some bill (it fired and is quiet until the condition ends) */
  armed: boolean;
  /** bills for which it fired and is waiting to re-arm */
  quietBillIds: number[];
  /** false when the account's tier no longer lets it fire (kept, and firing again after an upgrade) */
  active: boolean;
  /** why it is inactive; null when active */
  inactiveReason: string | null;
}

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

export interface HistoryFilter {
  billId?: number;
  alertType?: AlertType;
  from?: string;
  to?: string;
}

export interface HistoryPage {
  triggers: AlertTriggerEntity[];
  hasNextPage: boolean;
  totalCount: number;
  analytics: { byType: { key: string; count: number }[]; byBill: { key: string; count: number }[]; byDay: { key: string; count: number }[] };
}

// Messages name inputs in the domain's spelling and tag them (see AppError.field): each door renames.

function validValue(type: AlertType, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badInput('thresholdValue must be a number', 'thresholdValue');
  if (type === 'timeline_eta') {
    if (value < 0 || value > 3650) throw badInput('thresholdValue for timeline_eta is a number of days from 0 to 3650', 'thresholdValue');
  } else if (value < 0 || value > 1) {
    throw badInput(`thresholdValue for ${type} is a probability from 0 to 1`, 'thresholdValue');
  }
  return value;
}

/** The comparison a threshold of this type uses: the default when none is given, and only greater_than for trends, spikes and risks. */
function validComparison(type: AlertType, requested: unknown): Comparison {
  const comparison = requested === undefined || requested === null ? DEFAULT_COMPARISON[type] : requested;
  if (!isOneOf(COMPARISONS, comparison)) throw badInput(`comparison must be one of ${COMPARISONS.join(', ')}`, 'comparison');
  if (comparison === 'greater_than') return comparison;
  if (PRO_ONLY.has(type)) throw badInput(`${type} alerts on a rise of at least the threshold: comparison must be greater_than`, 'comparison');
  if (RISK_TYPES.has(type)) throw badInput(`${type} alerts when the risk exceeds the threshold: comparison must be greater_than`, 'comparison');
  return comparison;
}

/**
 * Alert thresholds on a user's watchlists, and their evaluation against today's nowcasts. A
 * threshold fires for a bill when its condition becomes true, stays quiet while it holds, and
 * re-arms when it becomes false. Triggers are the single record events will be made from.
 */
export class AlertService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly watchlists: WatchlistService,
    private readonly predictions: PredictionService,
    /** where the thresholds a check fires are emitted as `prediction.crossed_threshold` events, as the refresh emits its own */
    private readonly events?: EventLog,
  ) {}

  async create(accountId: number, tier: Tier, input: ThresholdInput): Promise<ThresholdView> {
    if (typeof input.watchlistId !== 'number' || !Number.isInteger(input.watchlistId)) throw badInput('watchlistId must be an integer', 'watchlistId');
    const watchlist = await this.watchlists.owned(accountId, input.watchlistId);
    if (!isOneOf(ALERT_TYPES, input.alertType)) throw badInput(`alertType must be one of ${ALERT_TYPES.join(', ')}`, 'alertType');
    const alertType = input.alertType;
    if (PRO_ONLY.has(alertType) && tier !== 'pro') throw new AppError('FORBIDDEN', `${alertType} alerts need the pro tier`);
    const comparison = validComparison(alertType, input.comparison);
    const thresholdValue = validValue(alertType, input.thresholdValue);
    let billId: number | null = null;
    if (input.billId !== undefined && input.billId !== null) {
      if (typeof input.billId !== 'number' || !Number.isInteger(input.billId) || input.billId < 1) throw badInput('billId must be a positive integer or null', 'billId');
      if (!(await this.watchlists.billIds(watchlist.id)).includes(input.billId)) throw badInput(`bill ${input.billId} is not on watchlist ${watchlist.id}`);
      billId = input.billId;
    }
    const saved = await this.dataSource.transaction(async (manager) => {
      if (tier !== 'pro') {
        // Counted inside the transaction that inserts, under a lock on the watchlist row, so racing requests cannot pass the limit.
        await manager.query('SELECT id FROM watchlist WHERE id = $1 FOR UPDATE', [watchlist.id]);
        const count = await manager.countBy(AlertThresholdEntity, { watchlistId: watchlist.id });
        if (count >= PILOT_THRESHOLDS_PER_WATCHLIST) {
          throw new AppError('FORBIDDEN', `The pilot tier allows ${PILOT_THRESHOLDS_PER_WATCHLIST} alert thresholds per watchlist; pro has no limit`);
        }
      }
      return manager.save(AlertThresholdEntity, { accountId, watchlistId: watchlist.id, billId, alertType, thresholdValue, comparison, lastTriggeredAt: null });
    });
    return { ...saved, armed: true, quietBillIds: [], active: true, inactiveReason: null };
  }

  async list(accountId: number, tier: Tier): Promise<ThresholdView[]> {
    const thresholds = await this.dataSource.getRepository(AlertThresholdEntity).find({ where: { accountId }, order: { id: 'ASC' } });
    if (!thresholds.length) return [];
    const quiet = (await this.dataSource.query('SELECT threshold_id, bill_id FROM alert_arm_state WHERE armed = false AND threshold_id = ANY($1) ORDER BY bill_id', [thresholds.map((t) => t.id)])) as { threshold_id: number; bill_id: number }[];
    const activity = thresholdActivity(thresholds, tier);
    return thresholds.map((t) => {
      const quietBillIds = quiet.filter((q) => q.threshold_id === t.id).map((q) => q.bill_id);
      return { ...t, armed: quietBillIds.length === 0, quietBillIds, active: activity.get(t.id) === null, inactiveReason: activity.get(t.id) ?? null };
    });
  }

  async delete(accountId: number, id: number): Promise<void> {
    const removed = Number.isSafeInteger(id) ? await this.dataSource.getRepository(AlertThresholdEntity).delete({ id, accountId }) : { affected: 0 };
    if (!removed.affected) throw notFound(`alert threshold ${id} does not exist`);
  }

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

  /** Triggers of the account, newest first, filtered and a page at a time, with counts over the whole filtered set. */
  async history(accountId: number, filter: HistoryFilter, first: number, afterId: number | null): Promise<HistoryPage> {
    const where: string[] = ['account_id = $1'];
    const params: unknown[] = [accountId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    // an absent filter may arrive as undefined or as null (GraphQL): both mean "any"
    if (filter.billId != null) add('bill_id = ?', filter.billId);
    if (filter.alertType != null) add('alert_type = ?', filter.alertType);
    if (filter.from != null) add('triggered_at >= ?::date', filter.from);
    if (filter.to != null) add('triggered_at < (?::date + 1)', filter.to);
    const clause = where.join(' AND ');
    const group = async (expression: string) =>
      ((await this.dataSource.query(`SELECT ${expression} AS key, count(*)::int AS count FROM alert_trigger WHERE ${clause} GROUP BY 1 ORDER BY 1`, params)) as { key: unknown; count: number }[]).map((r) => ({
        key: String(r.key),
        count: r.count,
      }));
    const [byType, byBill, byDay] = await Promise.all([group('alert_type'), group('bill_id'), group("to_char(triggered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')")]);
    const totalCount = byType.reduce((n, r) => n + r.count, 0);
    const pageParams = afterId !== null ? [...params, afterId] : params;
    const pageWhere = afterId !== null ? `${clause} AND id < $${pageParams.length}` : clause;
    const raw = (await this.dataSource.query(`SELECT * FROM alert_trigger WHERE ${pageWhere} ORDER BY id DESC LIMIT ${first + 1}`, pageParams)) as Record<string, unknown>[];
    const rows = raw.map(triggerFromRow);
    return { triggers: rows.slice(0, first), hasNextPage: rows.length > first, totalCount, analytics: { byType, byBill, byDay } };
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

const triggerFromRow = (r: Record<string, unknown>): AlertTriggerEntity => ({
  id: r.id as number,
  accountId: r.account_id as number,
  thresholdId: r.threshold_id as number,
  watchlistId: r.watchlist_id as number,
  watchlistName: r.watchlist_name as string,
  billId: r.bill_id as number,
  alertType: r.alert_type as AlertType,
  comparison: r.comparison as Comparison,
  thresholdValue: r.threshold_value as number,
  valueSeen: r.value_seen as number,
  referenceDate: r.reference_date as string,
  triggeredAt: r.triggered_at as Date,
  source: r.source as AlertCheckSource,
});

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
