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

/** Whether a tier may receive an event type: Pilot and Pro receive events, Pro alone the Pro-only types. */
export function tierReceives(tier: Tier, type: string): boolean {
  if (tier === 'free') return false;
  return tier === 'pro' || !isOneOf(PRO_EVENT_TYPES, type);
}

/**
 * The event types of an endpoint (or subscription) its account's tier does not receive now, and
 * why: Pro-only types after a downgrade from Pro. They are kept, and sent again after an upgrade.
 */
export function inactiveEventTypes<T extends string>(tier: Tier, types: readonly T[]): { types: T[]; reason: string | null } {
  const inactive = types.filter((type) => !tierReceives(tier, type));
  if (!inactive.length) return { types: inactive, reason: null };
  if (tier === 'free') return { types: inactive, reason: 'the free tier receives no events' };
  return { types: inactive, reason: `${inactive.join(', ')} ${inactive.length === 1 ? 'needs' : 'need'} the pro tier: not sent while the account is on the ${tier} tier` };
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
  if (!tierReceives(recipient.tier, event.type)) return false;
  if (event.accountId !== undefined) return event.accountId === recipient.accountId;
  return recipient.bills === 'all' || recipient.bills.has(event.data.bill_id);
}

/** What an open subscription's account is now: read again for every batch of events it is sent. */
export interface SubscriberStanding {
  tier: Tier;
  /** the API key it connected with was revoked (or belongs to it no more); false for a connection without one */
  keyRevoked: boolean;
  /** the bills on any of the account's watchlists: the `bills` of its EventRecipient */
  bills: Set<number>;
}

/** A subscription's account and the API key it connected with (null without one). */
export interface StandingOf {
  accountId: number;
  keyId: number | null;
}

/**
 * The account's tier, whether the key it connected with still stands, and the bills it follows,
 * for each of `subscribers`, in one query (a batch of events reaches every subscriber at once);
 * null for an account that is gone. In the order asked.
 */
export async function subscriberStandings(manager: Pick<EntityManager, 'query'>, subscribers: readonly StandingOf[]): Promise<(SubscriberStanding | null)[]> {
  const rows = (await manager.query(
    `SELECT s.i, a.tier,
            (s.key_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM api_key k WHERE k.id = s.key_id AND k.account_id = a.id AND k.revoked_at IS NULL)) AS key_revoked,
            ARRAY(SELECT DISTINCT wb.bill_id FROM watchlist_bill wb JOIN watchlist w ON w.id = wb.watchlist_id WHERE w.account_id = a.id) AS bills
       FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS s(account_id, key_id, i) JOIN account a ON a.id = s.account_id`,
    [subscribers.map((s) => s.accountId), subscribers.map((s) => s.keyId)],
  )) as { i: number | string; tier: Tier; key_revoked: boolean; bills: number[] | null }[];
  const byIndex = new Map(rows.map((row) => [Number(row.i), row]));
  return subscribers.map((_, index) => {
    const row = byIndex.get(index + 1);
    return row ? { tier: row.tier, keyRevoked: row.key_revoked, bills: new Set(row.bills ?? []) } : null;
  });
}
