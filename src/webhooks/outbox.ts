import type { EntityManager } from 'typeorm';
import { type EventRecipient, receivesEvent } from '../events/audience';
import type { EventSink, ServiceEvent } from '../events/event';
import type { EventType, Tier } from '../vocabulary';

/** Rows per INSERT: 1,000 endpoints times a refresh's events stay well inside PostgreSQL's 65,535 parameters. */
const ROWS_PER_INSERT = 1_000;

/** The body every channel carries: the event less the account it is addressed to. */
export function eventBody(event: ServiceEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });
}

interface EndpointRow {
  id: number;
  account_id: number;
  tier: Tier;
  events: EventType[];
  all_bills: boolean;
  watched: number[] | null;
}

/** Inserts outbox rows (ignoring ones already there: an event reaches an endpoint once). */
export async function insertDeliveries(manager: EntityManager, rows: { endpointId: number; event: ServiceEvent }[], dueAt: Date): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    const values = chunk.map((_, i) => `($${i * 4 + 1}::int, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4}, $${chunk.length * 4 + 1}::timestamptz)`).join(', ');
    const params = chunk.flatMap(({ endpointId, event }) => [endpointId, event.id, event.type, eventBody(event)]);
    await manager.query(`INSERT INTO webhook_delivery (endpoint_id, event_id, event_type, body, next_attempt_at) VALUES ${values} ON CONFLICT (endpoint_id, event_id) DO NOTHING`, [...params, dueAt]);
  }
}

/**
 * The webhook outbox as an EventSink: in the caller's transaction, one delivery row per event per
 * active endpoint of its type whose owner receives it (`receivesEvent`, the rule GraphQL
 * subscriptions follow too). `written` runs once the rows are
 * written (the worker is told to look; it finds them once the transaction commits).
 */
export function webhookOutbox(options: { now: () => Date; written?: () => void }): EventSink {
  return async (manager, events) => {
    if (!events.length) return;
    const types = [...new Set(events.map((e) => e.type))];
    const billIds = [...new Set(events.map((e) => e.data.bill_id))];
    const endpoints = (await manager.query(
      `SELECT e.id, e.account_id, a.tier, e.events, e.all_bills,
              (SELECT array_agg(DISTINCT wb.bill_id) FROM watchlist w JOIN watchlist_bill wb ON wb.watchlist_id = w.id
                WHERE w.account_id = e.account_id AND wb.bill_id = ANY($2::int[])) AS watched
         FROM webhook_endpoint e JOIN account a ON a.id = e.account_id
        WHERE e.active AND e.events && $1::text[]`,
      [types, billIds],
    )) as EndpointRow[];
    const recipients = endpoints.map((e) => ({
      endpointId: e.id,
      types: new Set<string>(e.events),
      recipient: { accountId: e.account_id, tier: e.tier, bills: e.all_bills ? 'all' : new Set(e.watched ?? []) } satisfies EventRecipient,
    }));
    const rows = events.flatMap((event) => recipients.filter((r) => r.types.has(event.type) && receivesEvent(event, r.recipient)).map((r) => ({ endpointId: r.endpointId, event })));
    if (!rows.length) return;
    await insertDeliveries(manager, rows, options.now());
    options.written?.();
  };
}
