import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from '@graphql-yoga/subscription';
import { setMaxListeners } from 'node:events';
import { Redis } from 'ioredis';
import type { ServiceEvent } from './event';

/**
 * Where committed events travel to their live receivers (GraphQL subscriptions): in-process by
 * default; with Redis, through one pub/sub channel, so a subscriber on one instance receives the
 * events of a refresh that ran on another. Each refresh publishes its events as one message.
 */
export interface EventBus {
  publish(events: readonly ServiceEvent[]): void;
  /** every batch published from now on (listening starts at the call), by any instance, until the iterator is returned */
  subscribe(): AsyncIterableIterator<ServiceEvent[]>;
  /** open subscriptions of this process (a gauge in /metrics) */
  subscribers(): number;
  close(): Promise<void>;
}

export interface EventBusOptions {
  /** Redis pub/sub when set; in-process otherwise */
  redisUrl?: string;
  /** the channel's name on Redis (tests give each run its own) */
  channel?: string;
}

export const DEFAULT_EVENT_CHANNEL = 'bill-progress:events';

export function createEventBus({ redisUrl, channel = DEFAULT_EVENT_CHANNEL }: EventBusOptions = {}): EventBus {
  const clients = redisUrl ? [new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null }), new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null })] : [];
  for (const client of clients) client.on('error', () => undefined); // reconnects on its own; the health check reports Redis
  type Channels = Record<string, [ServiceEvent[]]>;
  let open = 0;
  // every subscription is one listener on the channel: past 10, Node warned of a leak that is none
  const local = new EventTarget();
  setMaxListeners(0, local);
  const pubSub = createPubSub<Channels>({ eventTarget: clients.length ? createRedisEventTarget({ publishClient: clients[0], subscribeClient: clients[1] }) : local });
  return {
    publish: (events) => {
      if (events.length) pubSub.publish(channel, [...events]);
    },
    subscribe: () => {
      const source = pubSub.subscribe(channel)[Symbol.asyncIterator]() as AsyncIterableIterator<ServiceEvent[]>;
      // a repeater listens from its first pull: pull now, so nothing published after this call is missed
      let first: Promise<IteratorResult<ServiceEvent[]>> | null = source.next();
      open += 1;
      let counted = true;
      const done = () => counted && ((counted = false), (open -= 1));
      const iterator: AsyncIterableIterator<ServiceEvent[]> = {
        next: () => {
          const pending = first ?? source.next();
          first = null;
          return pending;
        },
        return: async (value?: unknown) => {
          done();
          await source.return?.(value);
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]: () => iterator,
      };
      return iterator;
    },
    subscribers: () => open,
    close: async () => {
      await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
