import { fullRiskIndicators, type GqlPrediction } from './prediction.mapper';

// GraphQL watchlist and alert results → the REST JSON documented in the README and OpenAPI file.

const lower = (value: string | null) => (value === null ? null : value.toLowerCase());

export interface GqlWatchlist {
  id: number;
  name: string;
  description: string | null;
  billCount: number;
  createdAt: string;
  updatedAt: string;
  bills?: Array<{ billId: number; addedAt: string; bill: { title: string } | null; prediction?: GqlPrediction | null; predictionDetail?: string | null }>;
}

export function watchlistSummary(w: GqlWatchlist) {
  return { id: w.id, name: w.name, description: w.description, bill_count: w.billCount, created_at: w.createdAt, updated_at: w.updatedAt };
}

export function watchlistDetail(w: GqlWatchlist) {
  return {
    ...watchlistSummary(w),
    bills: (w.bills ?? []).map((b) => ({
      bill_id: b.billId,
      title: b.bill?.title ?? null,
      added_at: b.addedAt,
      ...(b.prediction !== undefined
        ? {
            current_stage: b.prediction?.lastStage ?? null,
            predictions: b.prediction
              ? {
                  royal_assent: b.prediction.royalAssent,
                  next_stage_30d: b.prediction.nextStage30d,
                  timeline_eta_days: b.prediction.timelineEtaDays,
                  stall_risk: b.prediction.stallRisk,
                  withdrawal_risk: b.prediction.withdrawalRisk,
                }
              : null,
            risk_indicators: b.prediction ? fullRiskIndicators(b.prediction) : null,
            ...(b.predictionDetail ? { predictions_detail: b.predictionDetail } : {}),
          }
        : {}),
    })),
  };
}

export interface GqlThreshold {
  id: number;
  watchlistId: number;
  billId: number | null;
  alertType: string;
  thresholdValue: number;
  comparison: string;
  createdAt: string;
  lastTriggeredAt: string | null;
  armed: boolean;
  quietBillIds: number[];
  active: boolean;
  inactiveReason: string | null;
}

export function threshold(t: GqlThreshold) {
  return {
    id: t.id,
    watchlist_id: t.watchlistId,
    bill_id: t.billId,
    alert_type: lower(t.alertType),
    threshold_value: t.thresholdValue,
    comparison: lower(t.comparison),
    created_at: t.createdAt,
    last_triggered_at: t.lastTriggeredAt,
    armed: t.armed,
    quiet_bill_ids: t.quietBillIds,
    active: t.active,
    inactive_reason: t.inactiveReason,
  };
}

export interface GqlTrigger {
  id: number;
  thresholdId: number;
  watchlistId: number;
  watchlistName: string;
  billId: number;
  alertType: string;
  comparison: string;
  thresholdValue: number;
  valueSeen: number;
  referenceDate: string;
  triggeredAt: string;
  source: string;
}

export function trigger(t: GqlTrigger) {
  return {
    id: t.id,
    threshold_id: t.thresholdId,
    watchlist_id: t.watchlistId,
    watchlist_name: t.watchlistName,
    bill_id: t.billId,
    alert_type: lower(t.alertType),
    comparison: lower(t.comparison),
    threshold_value: t.thresholdValue,
    value_seen: t.valueSeen,
    reference_date: t.referenceDate,
    triggered_at: t.triggeredAt,
    source: t.source,
  };
}

const counts = (rows: { key: string; count: number }[]) => Object.fromEntries(rows.map((r) => [lower(r.key), r.count]));

export function history(h: { totalCount: number; nextCursor: string | null; triggers: GqlTrigger[]; analytics: Record<'byType' | 'byBill' | 'byDay', { key: string; count: number }[]> }) {
  return {
    triggers: h.triggers.map(trigger),
    total: h.totalCount,
    next_cursor: h.nextCursor,
    analytics: { by_type: counts(h.analytics.byType), by_bill: counts(h.analytics.byBill), by_day: counts(h.analytics.byDay) },
  };
}
