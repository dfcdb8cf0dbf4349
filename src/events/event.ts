import type { EntityManager } from 'typeorm';
import type { EventType } from '../vocabulary';

/**
 * One event, in the payload every channel carries (webhook body, GraphQL subscription, replay log):
 * `{"id": "evt_…", "type": …, "timestamp": …, "data": {"bill_id": …, …}}`. An event concerns one bill.
 */
export interface ServiceEvent {
  /** `evt_` + a random or derived unique suffix; the same on every retry and every channel */
  id: string;
  type: EventType | 'webhook.test';
  /** ISO 8601 of the service day and time it happened */
  timestamp: string;
  data: { bill_id: number } & Record<string, unknown>;
  /** set when only one account may receive the event (a threshold of theirs crossed, a test delivery) */
  accountId?: number;
}

/**
 * Where the refresh writes its events inside its own transaction (the webhook outbox is one), so an
 * event is never emitted without its deliveries being recorded, nor recorded without being emitted.
 */
export type EventSink = (manager: EntityManager, events: readonly ServiceEvent[]) => Promise<void>;
