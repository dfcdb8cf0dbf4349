import { AppError, badInput } from '../errors';
import { EVENT_TYPES, type EventType, isOneOf, PRO_EVENT_TYPES, type Tier } from '../vocabulary';
import DataLoader from 'dataloader';
import { receivesEvent, type StandingOf, type SubscriberStanding, subscriberStandings } from './audience';
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

/** Who subscribes: the account, its tier when it connected, and the API key it connected with (null without one). */
export interface Subscriber {
  accountId: number;
  tier: Tier;
  keyId: number | null;
}

/**
 * The subscriber's credential no longer admits the connection (its key was revoked, its account
 * deleted or moved to Free): the door ends the whole connection with the close code of the
 * error's status, as it refuses such a credential at connect (4401, 4403).
 */
export class SubscriptionLapsed extends AppError {}

/**
 * An async stream that can also hand over, at once, the items it already holds (the rest of a
 * published batch): a consumer that takes them saves a turn of the event loop per item (with 1,000
 * subscribers × ~40 events a batch, those turns were most of the fan-out's CPU). Taken items are not
 * yielded again; the order is the stream's.
 */
export interface BufferedStream<T> extends AsyncGenerator<T> {
  takeBuffered(): T[];
}

/**
 * The events of the bus a user receives (src/events/audience.ts), narrowed by a filter, as they
 * are published from the call on. The filter is checked at once (it throws the 400 or 403 before
 * anything streams). For each published batch the account is read again (subscriberStandings, one query for every subscription the batch reaches):
 * a bill added to a watchlist counts from the next refresh on, a revoked key or a move to Free
 * ends the stream with SubscriptionLapsed, a move below Pro ends a stream that asked for Pro-only
 * types with the FORBIDDEN it would have met at the start, and other streams go on at the new tier.
 */
export function eventStream(bus: EventBus, db: Pick<EntityManager, 'query'>, user: Subscriber, filter: EventFilter): BufferedStream<ServiceEvent> {
  requestedTypes(filter.types, user.tier);
  // subscribed now, not at the first pull: nothing published after this call is missed
  const batches = bus.subscribe();
  const buffered: ServiceEvent[] = [];
  const events = stream(batches, db, user, filter, buffered) as BufferedStream<ServiceEvent>;
  events.takeBuffered = () => buffered.splice(0);
  // A generator waiting for its next batch would run its own return only at the next publish:
  // until then an ended subscription still listened and counted. Ending the batches first wakes it.
  const finish = events.return.bind(events);
  events.return = async (value) => {
    await batches.return?.();
    return finish(value);
  };
  return events;
}

type Db = Pick<EntityManager, 'query'>;
/**
 * A published batch wakes every subscription of the process at once: their standings are read in
 * one query per batch rather than one each (1,000 subscribers made 1,000 queries, serialised on
 * the embedded database, before the last of them was sent anything). Each batch reads afresh.
 */
const standingsByBatch = new WeakMap<object, WeakMap<Db, DataLoader<StandingOf, SubscriberStanding | null, string>>>();
function standingAt(batch: object, db: Db, user: StandingOf): Promise<SubscriberStanding | null> {
  let byDb = standingsByBatch.get(batch);
  if (!byDb) standingsByBatch.set(batch, (byDb = new WeakMap()));
  let loader = byDb.get(db);
  if (!loader) {
    // a macrotask later, so every subscription woken by the batch has asked
    loader = new DataLoader((keys: readonly StandingOf[]) => subscriberStandings(db, keys), { cacheKeyFn: (k) => `${k.accountId}:${k.keyId}`, batchScheduleFn: (run) => setImmediate(run) });
    byDb.set(db, loader);
  }
  return loader.load({ accountId: user.accountId, keyId: user.keyId });
}

/** A batch's events for the user go to `buffered` and are yielded from it, unless taken from it first (takeBuffered). */
async function* stream(batches: AsyncIterableIterator<ServiceEvent[]>, db: Pick<EntityManager, 'query'>, user: Subscriber, filter: EventFilter, buffered: ServiceEvent[]): AsyncGenerator<ServiceEvent> {
  const billIds = filter.billIds ? new Set(filter.billIds) : null;
  try {
    for (;;) {
      const next = await batches.next();
      if (next.done) return;
      const standing = await standingAt(next.value, db, user);
      if (!standing) throw new SubscriptionLapsed('UNAUTHENTICATED', 'The account of this subscription no longer exists');
      if (standing.keyRevoked) throw new SubscriptionLapsed('UNAUTHENTICATED', 'The API key of this subscription was revoked');
      if (standing.tier === 'free') throw new SubscriptionLapsed('FORBIDDEN', 'Events need the pilot or pro tier: this account is on free now');
      const types = requestedTypes(filter.types, standing.tier);
      for (const event of next.value) {
        if (types && !types.has(event.type as EventType)) continue;
        if (billIds && !billIds.has(event.data.bill_id)) continue;
        if (receivesEvent(event, { accountId: user.accountId, tier: standing.tier, bills: standing.bills })) buffered.push(event);
      }
      while (buffered.length) yield buffered.shift()!;
    }
  } finally {
    await batches.return?.();
  }
}
