import type { DataSource } from 'typeorm';
import { AlertThresholdEntity } from '../db/entities/alert-threshold.entity';
import type { AlertTriggerEntity } from '../db/entities/alert-trigger.entity';
import { AppError, badInput, notFound } from '../errors';
import { PILOT_THRESHOLDS_PER_WATCHLIST, PRO_ONLY, thresholdActivity } from './alert-evaluation';
import type { WatchlistService } from './watchlist.service';
import { ALERT_TYPES, type AlertCheckSource, type AlertType, COMPARISONS, type Comparison, isOneOf, RISKS, type Tier } from '../vocabulary';

/* Alert thresholds' records: made, listed and deleted, and the history of what they fired. */

/** "alert when the risk exceeds the threshold" (4.4): these compare greater_than only. */
const RISK_TYPES: ReadonlySet<AlertType> = new Set(RISKS);

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
 * Alert thresholds on a user's watchlists: made, listed (with whether each is armed and may fire
 * on the account's tier) and deleted, and the history of what they fired. Whether they fire is
 * src/services/alert-evaluation.ts's.
 */
export class AlertService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly watchlists: WatchlistService,
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
