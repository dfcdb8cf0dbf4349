import { randomBytes } from 'node:crypto';
import type { AlertTriggerEntity } from '../db/entities/alert-trigger.entity';
import { type Nowcast, outputsOf } from '../model/serve/predictor';
import type { ServiceEvent } from './event';
import type { PredictionPoint } from './prediction-point';
import { predictionsPayload } from './prediction-payload';
import type { PredictionEventType } from './rules';

/** `evt_` + 128 random bits: unique across instances without coordination; stored, so stable on every channel and retry. */
export const newEventId = (): string => `evt_${randomBytes(16).toString('base64url')}`;

/** The service's day with the time of day it happened: a replayed day keeps the real time of its refresh. */
export const eventTimestamp = (serviceDay: string, now: Date): string => `${serviceDay}T${now.toISOString().slice(11)}`;

/** What a prediction event tells of the nowcast that raised it: the model's numbers and the version that served them. */
type ServedNowcast = Pick<Nowcast, 'billId' | 'referenceDate' | 'probabilities' | 'timelineEtaDays'> & { model: { version: number } };

/** The compared values, in the same shape: what a snapshot keeps. */
const previousOf = (p: PredictionPoint) => ({
  reference_date: p.referenceDate,
  royal_assent: { probability: p.royalAssent },
  next_stage_30d: { probability: p.nextStage30d },
  timeline_eta: { days: p.timelineEtaDays },
});

export interface StageRecord {
  billId: number;
  stageRecordId: number;
  stage: string;
  house: string;
  date: string;
}

export const stageChangedEvent = (s: StageRecord, timestamp: string): ServiceEvent => ({
  id: newEventId(),
  type: 'bill.stage_changed',
  timestamp,
  data: { bill_id: s.billId, stage_record_id: s.stageRecordId, stage: s.stage, house: s.house, date: s.date },
});

/** A sighting of a sitting dated after its day (src/ingest/scheduled-sittings.ts): new, or a stage's date moved. */
export interface ScheduledSighting {
  sittingId: number;
  billId: number;
  title: string;
  stageRecordId: number;
  stage: string;
  house: string;
  scheduledFor: string;
  firstSeen: string;
  /** the stage's date this one replaced; null for a first date */
  previouslyScheduledFor: string | null;
}

export const stageScheduledEvent = (s: ScheduledSighting, timestamp: string): ServiceEvent => ({
  id: newEventId(),
  type: 'bill.stage_scheduled',
  timestamp,
  data: {
    bill_id: s.billId,
    title: s.title,
    stage: s.stage,
    house: s.house,
    scheduled_for: s.scheduledFor,
    first_seen: s.firstSeen,
    previously_scheduled_for: s.previouslyScheduledFor,
    stage_record_id: s.stageRecordId,
    sitting_id: s.sittingId,
  },
});

export const predictionEvent = (type: PredictionEventType, n: ServedNowcast, previous: PredictionPoint, timestamp: string): ServiceEvent => ({
  id: newEventId(),
  type,
  timestamp,
  data: { bill_id: n.billId, reference_date: n.referenceDate, model_version: n.model.version, predictions: predictionsPayload(outputsOf(n)), previous: previousOf(previous) },
});

export const thresholdEvent = (t: AlertTriggerEntity, timestamp: string): ServiceEvent => ({
  id: newEventId(),
  type: 'prediction.crossed_threshold',
  timestamp,
  accountId: t.accountId,
  data: {
    bill_id: t.billId,
    threshold_id: t.thresholdId,
    trigger_id: t.id,
    watchlist_id: t.watchlistId,
    alert_type: t.alertType,
    comparison: t.comparison,
    threshold_value: t.thresholdValue,
    value: t.valueSeen,
    reference_date: t.referenceDate,
  },
});
