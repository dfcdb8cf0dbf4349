import { AppError, badInput } from '../errors';
import { EVENT_TYPES, type EventType, isOneOf, PRO_EVENT_TYPES, type Tier } from '../vocabulary';
import { receivesEvent, watchedBillIds } from './audience';
import type { EventBus } from './bus';
import type { ServiceEvent } from './event';
import type { EntityManager } from 'typeorm';

export interface EventFilter {
  /** event types wanted; all the tier receives when absent */
  types?: readonly string[] | null;
  /** bills wanted, among those the recipient follows; all of them when absent */
  billIds?: readonly number[] | null;
}

/**
 * The event types a filter asks for, checked against the tier: an unknown type is a 400 naming
 * it, a Pro-only type below Pro a 403 (as a webhook registration is).
 */
export function requestedTypes(types: readonly string[] | null | undefined, tier: Tier): ReadonlySet<EventType> | null {
  if (!types) return null;
  for (const type of types) {
    if (!isOneOf(EVENT_TYPES, type)) throw badInput(`unknown event type "${type}"; types: ${EVENT_TYPES.join(', ')}`, 'types');
    if (isOneOf(PRO_EVENT_TYPES, type) && tier !== 'pro') throw new AppError('FORBIDDEN', `${type} events need the pro tier`);
  }
  return new Set(types as EventType[]);
}

/**
 * The events of the bus a user receives (src/events/audience.ts), narrowed by a filter, as they
 * are published from the call on. The filter is checked at once (it throws the 400 or 403 before
 * anything streams). The user's watched bills are read again for each published batch, so a bill
 * added to a watchlist counts from the next refresh on.
 */
export function eventStream(bus: EventBus, db: Pick<EntityManager, 'query'>, user: { accountId: number; tier: Tier }, filter: EventFilter): AsyncGenerator<ServiceEvent> {
  const types = requestedTypes(filter.types, user.tier);
  const billIds = filter.billIds ? new Set(filter.billIds) : null;
  // subscribed now, not at the first pull: nothing published after this call is missed
  const batches = bus.subscribe();
  return stream(batches, db, user, types, billIds);
}

async function* stream(
  batches: AsyncIterableIterator<ServiceEvent[]>,
  db: Pick<EntityManager, 'query'>,
  user: { accountId: number; tier: Tier },
  types: ReadonlySet<EventType> | null,
  billIds: ReadonlySet<number> | null,
): AsyncGenerator<ServiceEvent> {
  try {
    for (;;) {
      const next = await batches.next();
      if (next.done) return;
      const bills = await watchedBillIds(db, user.accountId);
      for (const event of next.value) {
        if (types && !types.has(event.type as EventType)) continue;
        if (billIds && !billIds.has(event.data.bill_id)) continue;
        if (receivesEvent(event, { accountId: user.accountId, tier: user.tier, bills })) yield event;
      }
    }
  } finally {
    await batches.return?.();
  }
}
