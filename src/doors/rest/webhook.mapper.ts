import { EVENT_TYPES, type EventType, type WebhookFormat } from '../../vocabulary';
import type { CreateWebhookData, WebhookDeliveriesData, WebhookFields } from './generated/document-data';

// GraphQL webhook results → the REST JSON of docs/api-watchlists.md and the OpenAPI file; event types travel
// as GraphQL enum names (PREDICTION_UPDATED) and are the specification's words (prediction.updated) on REST.

const graphqlName = (type: EventType) => type.toUpperCase().replace(/\./g, '_');
const WORD_OF_NAME = new Map(EVENT_TYPES.map((type) => [graphqlName(type), type]));

export const eventTypeNames = (types: readonly EventType[]) => types.map(graphqlName);

/** A format as the GraphQL enum names it (SLACK), and back (slack). */
export const formatName = (format: WebhookFormat) => format.toUpperCase();
const formatWord = (name: string) => name.toLowerCase() as WebhookFormat;

const eventWords = (names: string[]) => names.map((name) => WORD_OF_NAME.get(name) ?? name);

export function webhook(w: WebhookFields) {
  return {
    id: w.id,
    url: w.url,
    format: formatWord(w.format),
    events: eventWords(w.events),
    description: w.description,
    all_bills: w.allBills,
    active: w.active,
    disabled_reason: w.disabledReason,
    inactive_events: eventWords(w.inactiveEvents),
    inactive_reason: w.inactiveReason,
    created_at: w.createdAt,
  };
}

export const webhookWithSecret = (w: CreateWebhookData['createWebhook']) => ({ ...webhook(w.endpoint), secret: w.secret });

export function delivery(d: WebhookDeliveriesData['webhookDeliveries'][number]) {
  return {
    event_id: d.eventId,
    event_type: d.eventType,
    format: formatWord(d.format),
    status: d.status,
    attempt: d.attempt,
    status_code: d.statusCode,
    error: d.error,
    duration_ms: d.durationMs,
    attempted_at: d.attemptedAt,
    next_attempt_at: d.nextAttemptAt,
    created_at: d.createdAt,
    attempts: d.attempts.map((a) => ({ attempt: a.attempt, status_code: a.statusCode, error: a.error, duration_ms: a.durationMs, attempted_at: a.attemptedAt })),
  };
}
