/** The webhook API's types and words, shared by the Webhooks page and its endpoint cards. */
import type * as Schema from './generated/schema';

/** What the pages select (operations.ts: WEBHOOKS, WEBHOOK_DELIVERIES, …), typed from the schema (generated/schema.ts). */
export type WebhookEndpoint = Pick<Schema.WebhookEndpoint, 'id' | 'url' | 'format' | 'description' | 'events' | 'allBills' | 'active' | 'disabledReason' | 'inactiveReason' | 'createdAt'>;
export type WebhookDelivery = Pick<Schema.WebhookDelivery, 'eventId' | 'eventType' | 'status' | 'attempt' | 'statusCode' | 'error' | 'durationMs' | 'attemptedAt' | 'nextAttemptAt' | 'createdAt'> & {
  attempts: Pick<Schema.WebhookAttempt, 'attempt' | 'statusCode' | 'error' | 'durationMs' | 'attemptedAt'>[];
};

/** A secret just made (by registering or rotating), shown once above the list. */
export interface NewSecret {
  endpointId: number;
  secret: string;
  rotated: boolean;
}

/** Every event type (the schema's EventType), in plain words; `pro` ones need the Pro tier. */
export const EVENT_TYPES: { value: Schema.EventType; label: string; pro?: boolean }[] = [
  { value: 'BILL_STAGE_CHANGED', label: 'A bill reaches a new stage' },
  { value: 'BILL_STAGE_SCHEDULED', label: 'A bill’s stage is set down for a date, or its date moves' },
  { value: 'PREDICTION_UPDATED', label: 'A prediction changes (by a point or more, or a day of its timeline)' },
  { value: 'PREDICTION_IMMINENT_STAGE_CHANGE', label: 'A bill’s next stage becomes imminent (within 7 days)' },
  { value: 'PREDICTION_HIGH_PROBABILITY', label: 'Royal Assent becomes likely (crosses 80%)' },
  { value: 'PREDICTION_PROBABILITY_SPIKE', label: 'A probability jumps 15 points within a week', pro: true },
  { value: 'PREDICTION_TRENDING_UP', label: 'Royal Assent rises three refreshes in a row', pro: true },
  { value: 'PREDICTION_CROSSED_THRESHOLD', label: 'One of your alert thresholds fires', pro: true },
];

/** The body an endpoint receives (the schema's WebhookFormat): signed JSON, or a chat service's message. */
export const WEBHOOK_FORMATS: { value: Schema.WebhookFormat; label: string }[] = [
  { value: 'STANDARD', label: 'Standard (signed JSON)' },
  { value: 'SLACK', label: 'Slack (incoming webhook)' },
  { value: 'TEAMS', label: 'Microsoft Teams (Workflows webhook)' },
];

/** PREDICTION_UPDATED → prediction.updated, the name a receiver sees in the payload's `type`. */
export const eventName = (value: Schema.EventType) => value.toLowerCase().replace('_', '.');
