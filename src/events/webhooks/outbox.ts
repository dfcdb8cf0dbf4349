import type { EntityManager } from 'typeorm';
import { type EventRecipient, receivesEvent } from '../audience';
import type { EventSink, ServiceEvent } from '../event';
import { type EventType, isChatFormat, type Tier, type WebhookFormat } from '../../vocabulary';
import { billPageUrl, webhooksPageUrl } from '../event-words';
import { chatBody } from './chat-messages';
import type { ClaimedDelivery, OutboxHandoff, Preclaim } from './handoff';

/** Rows per INSERT: 1,000 endpoints times a refresh's events stay well inside PostgreSQL's 65,535 parameters. */
const ROWS_PER_INSERT = 1_000;

/** The body every channel carries: the event less the account it is addressed to. */
export function eventBody(event: ServiceEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });
}

/** The titles of the bills of `events`, for chat messages (a bill missing from the data is named by its id). */
export async function billTitles(manager: EntityManager, events: readonly ServiceEvent[]): Promise<Map<number, string>> {
  const ids = [...new Set(events.map((e) => e.data.bill_id).filter((id) => id > 0))];
  if (!ids.length) return new Map();
  const rows = (await manager.query('SELECT id, title FROM bill WHERE id = ANY($1::int[])', [ids])) as { id: number; title: string }[];
  return new Map(rows.map((r) => [r.id, r.title]));
}

/**
 * The body of one delivery in its endpoint's format: the event's JSON (standard), or a chat message
 * naming the bill and linking to its dashboard page under PUBLIC_URL (a test event links to the
 * dashboard's webhooks page).
 */
export function deliveryBody(format: WebhookFormat, event: ServiceEvent, titles: ReadonlyMap<number, string>, publicUrl: string): string {
  if (!isChatFormat(format)) return eventBody(event);
  const billId = event.data.bill_id;
  if (event.type === 'webhook.test') return chatBody(format, event, { title: null, link: webhooksPageUrl(publicUrl) });
  return chatBody(format, event, { title: titles.get(billId) ?? `Bill ${billId}`, link: billPageUrl(publicUrl, billId) });
}

type EndpointSecrets = Pick<ClaimedDelivery, 'url' | 'format' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_expires_at'>;

interface EndpointRow extends EndpointSecrets {
  id: number;
  account_id: number;
  tier: Tier;
  events: EventType[];
  all_bills: boolean;
  watched: number[] | null;
}

/**
 * Inserts outbox rows (ignoring ones already there: an event reaches an endpoint once), due at
 * `dueAt`; with `claim`, written already claimed by it (attempt 1, due again when the claim
 * lapses), and the ids of the rows inserted are returned in the order given (0 for one already there).
 */
export async function insertDeliveries(
  manager: EntityManager,
  rows: { endpointId: number; event: ServiceEvent; body?: string; format?: WebhookFormat }[],
  dueAt: Date,
  claim?: Preclaim,
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    const n = chunk.length * 5;
    const values = chunk.map((_, i) => `($${i * 5 + 1}::int, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5}, $${n + 1}::timestamptz, $${n + 2}::int, $${n + 3}::timestamptz)`).join(', ');
    const params = chunk.flatMap(({ endpointId, event, body, format }) => [endpointId, event.id, event.type, body ?? eventBody(event), format ?? 'standard']);
    const inserted = (await manager.query(
      `INSERT INTO webhook_delivery (endpoint_id, event_id, event_type, body, format, next_attempt_at, attempt, claimed_at) VALUES ${values} ON CONFLICT (endpoint_id, event_id) DO NOTHING${claim ? ' RETURNING id, endpoint_id, event_id' : ''}`,
      [...params, claim ? claim.until : dueAt, claim ? 1 : 0, claim ? claim.at : null],
    )) as { id: number; endpoint_id: number; event_id: string }[];
    if (!claim) continue;
    const byKey = new Map(inserted.map((r) => [`${r.endpoint_id} ${r.event_id}`, r.id]));
    for (const { endpointId, event } of chunk) ids.push(byKey.get(`${endpointId} ${event.id}`) ?? 0);
  }
  return ids;
}

/**
 * The webhook outbox as an EventSink: in the caller's transaction, one delivery row per event per
 * active endpoint of its type whose owner receives it (`receivesEvent`, the rule GraphQL
 * subscriptions follow too). Once the rows are written the handoff tells the worker to look; it
 * finds them once the transaction commits.
 */
export function webhookOutbox(options: { now: () => Date; handoff?: OutboxHandoff; /** PUBLIC_URL: where chat messages link to */ publicUrl: string }): EventSink {
  return async (manager, events) => {
    if (!events.length) return;
    const types = [...new Set(events.map((e) => e.type))];
    const billIds = [...new Set(events.map((e) => e.data.bill_id))];
    const endpoints = (await manager.query(
      `SELECT e.id, e.account_id, a.tier, e.events, e.all_bills, e.url, e.format, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
              (SELECT array_agg(DISTINCT wb.bill_id) FROM watchlist w JOIN watchlist_bill wb ON wb.watchlist_id = w.id
                WHERE w.account_id = e.account_id AND wb.bill_id = ANY($2::int[])) AS watched
         FROM webhook_endpoint e JOIN account a ON a.id = e.account_id
        WHERE e.active AND e.events && $1::text[]`,
      [types, billIds],
    )) as EndpointRow[];
    const recipients = endpoints.map((e) => ({
      endpointId: e.id,
      endpoint: e,
      types: new Set<string>(e.events),
      recipient: { accountId: e.account_id, tier: e.tier, bills: e.all_bills ? 'all' : new Set(e.watched ?? []) } satisfies EventRecipient,
    }));
    // the bills' titles only when a chat endpoint is among the recipients: the standard body carries none
    const titles = endpoints.some((e) => isChatFormat(e.format)) ? await billTitles(manager, events) : new Map<number, string>();
    const rows = events.flatMap((event) => {
      // each format's body built once per event, however many endpoints take it
      const bodies = new Map<WebhookFormat, string>();
      const bodyOf = (format: WebhookFormat) => bodies.get(format) ?? bodies.set(format, deliveryBody(format, event, titles, options.publicUrl)).get(format)!;
      return recipients
        .filter((r) => r.types.has(event.type) && receivesEvent(event, r.recipient))
        .map((r) => ({ endpointId: r.endpointId, endpoint: r.endpoint, event, format: r.endpoint.format, body: bodyOf(r.endpoint.format) }));
    });
    if (!rows.length) return;
    // the first rows, as many as this process's worker takes, are written claimed by it and handed to it after the commit
    const claim = options.handoff?.preclaim(rows.length) ?? null;
    const claimed = claim ? rows.slice(0, claim.count) : [];
    const ids = claim ? await insertDeliveries(manager, claimed, claim.until, claim) : [];
    await insertDeliveries(manager, rows.slice(claimed.length), options.now());
    if (claim) {
      const handed: ClaimedDelivery[] = [];
      claimed.forEach(({ endpoint: e, event, body }, i) => {
        if (ids[i]) handed.push({ id: ids[i], endpoint_id: e.id, account_id: e.account_id, event_id: event.id, body, format: e.format, attempt: 1, url: e.url, secret_sealed: e.secret_sealed, previous_secret_sealed: e.previous_secret_sealed, previous_secret_expires_at: e.previous_secret_expires_at });
      });
      options.handoff!.written(claim, handed);
    }
    options.handoff?.queued();
  };
}
