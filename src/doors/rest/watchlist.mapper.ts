import type { AlertHistoryData, CreateWatchlistData, GetWatchlistData, PredictionFields, ThresholdFields, TriggerFields, WatchlistFields } from './generated/document-data';
import { singlePrediction } from './prediction.mapper';

// GraphQL watchlist and alert results → the REST JSON documented in the README and OpenAPI file.

const lower = (value: string | null) => (value === null ? null : value.toLowerCase());

/** A watchlist with its bills: with today's predictions when read alone (GetWatchlist), without when just changed or read with predictions=false. */
type WatchlistWithBills = GetWatchlistData['watchlist'] | CreateWatchlistData['createWatchlist'];

export function watchlistSummary(w: WatchlistFields) {
  return { id: w.id, name: w.name, description: w.description, bill_count: w.billCount, created_at: w.createdAt, updated_at: w.updatedAt, calendar_url: w.calendarUrl, feed_url: w.feedUrl };
}

/** A watchlist's bills carry today's predictions and risk indicators exactly as GET /predict/{bill_id} gives them. */
function todaysPredictions(prediction: PredictionFields | null, detail: string | null) {
  const single = prediction ? singlePrediction(prediction) : null;
  return {
    current_stage: prediction?.lastStage ? { ...prediction.lastStage, stage: prediction.lastStage.stage.toLowerCase() } : null,
    predictions: single?.predictions ?? null,
    risk_indicators: single?.risk_indicators ?? null,
    ...(detail ? { predictions_detail: detail } : {}),
  };
}

export function watchlistDetail(w: WatchlistWithBills) {
  return {
    ...watchlistSummary(w),
    bills: w.bills.map((b) => ({
      bill_id: b.billId,
      title: b.bill?.title ?? null,
      added_at: b.addedAt,
      ...('prediction' in b ? todaysPredictions(b.prediction, b.predictionDetail) : {}),
    })),
  };
}

export function threshold(t: ThresholdFields) {
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

export function trigger(t: TriggerFields) {
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

export function history(h: AlertHistoryData['alertHistory']) {
  return {
    triggers: h.triggers.map(trigger),
    total: h.totalCount,
    next_cursor: h.nextCursor,
    analytics: { by_type: counts(h.analytics.byType), by_bill: counts(h.analytics.byBill), by_day: counts(h.analytics.byDay) },
  };
}
