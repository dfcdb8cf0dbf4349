import type { EntityManager } from 'typeorm';
import { isOneOf, PRO_EVENT_TYPES, type Tier } from '../vocabulary';
import type { ServiceEvent } from './event';

/** Who may receive events: an account, its tier, and the bills it follows. */
export interface EventRecipient {
  accountId: number;
  tier: Tier;
  /** the bills on any of the account's watchlists (watchedBillIds), or 'all' (a webhook with `all_bills: true`) */
  bills: ReadonlySet<number> | 'all';
}

/**
 * Whether `recipient` receives `event`, on every channel alike (webhook deliveries, GraphQL
 * subscriptions): never on the Free tier; Pro-only types only on Pro; an event with an `accountId`
 * only for that account (whatever bills it follows); otherwise when the event's bill is one the
 * recipient follows. A channel's own filters (a webhook's event types, a subscription's `types`
 * and `billIds`) narrow this further.
 *
 * @param event the event, as the refresh emitted it
 * @param recipient the account, its current tier and the bills it follows
 * @returns true when the event may be delivered to that account
 */
export function receivesEvent(event: ServiceEvent, recipient: EventRecipient): boolean {
  if (recipient.tier === 'free') return false;
  if (isOneOf(PRO_EVENT_TYPES, event.type) && recipient.tier !== 'pro') return false;
  if (event.accountId !== undefined) return event.accountId === recipient.accountId;
  return recipient.bills === 'all' || recipient.bills.has(event.data.bill_id);
}

/** The bills on any of the account's watchlists: the `bills` of its EventRecipient. */
export async function watchedBillIds(manager: Pick<EntityManager, 'query'>, accountId: number): Promise<Set<number>> {
  const rows = (await manager.query('SELECT DISTINCT wb.bill_id FROM watchlist_bill wb JOIN watchlist w ON w.id = wb.watchlist_id WHERE w.account_id = $1', [accountId])) as { bill_id: number }[];
  return new Set(rows.map((r) => r.bill_id));
}
