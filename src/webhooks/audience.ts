import type { ServiceEvent } from '../events/event';
import { type EventType, isOneOf, PRO_EVENT_TYPES, type Tier } from '../vocabulary';

/** Whether a tier may receive an event type: Pilot and Pro receive events, Pro alone the Pro-only types. */
export function tierReceives(tier: Tier, type: string): boolean {
  if (tier === 'free') return false;
  return tier === 'pro' || !isOneOf(PRO_EVENT_TYPES, type);
}

/** One subscriber of events (a webhook endpoint): whose it is and what it asked for. */
export interface Subscriber {
  accountId: number;
  tier: Tier;
  types: readonly EventType[];
  allBills: boolean;
  /** the bills on any of the owner's watchlists (at least those the events concern) */
  watchedBillIds: ReadonlySet<number>;
}

/**
 * Who receives an event: a subscriber of its type whose tier allows it, for a bill on one of the
 * owner's watchlists (or every bill with all_bills); an event for one account goes to that account alone.
 */
export function receives(subscriber: Subscriber, event: ServiceEvent): boolean {
  if (event.accountId !== undefined && event.accountId !== subscriber.accountId) return false;
  if (event.type === 'webhook.test' || !subscriber.types.includes(event.type)) return false;
  if (!tierReceives(subscriber.tier, event.type)) return false;
  return subscriber.allBills || subscriber.watchedBillIds.has(event.data.bill_id);
}
