import type { EntityManager } from 'typeorm';
import { createEventBus } from '../../../../src/events/bus';
import type { ServiceEvent } from '../../../../src/events/event';
import { eventStream, SubscriptionLapsed } from '../../../../src/events/event-stream';
import type { Tier } from '../../../../src/vocabulary';

const event = (type: ServiceEvent['type'], billId: number, id: string): ServiceEvent => ({ id, type, timestamp: '2021-11-19T10:00:00.000Z', data: { bill_id: billId } });
/** The database as the stream reads it: the account's standing, which a test may change between batches. */
interface StandingRow {
  tier: Tier;
  key_revoked: boolean;
  bills: number[];
}
const standing = (bills: number[], tier: Tier = 'pilot') => {
  let current: StandingRow | null = { tier, key_revoked: false, bills };
  return {
    // one row per subscriber asked for (by its position), as the batched query answers
    db: { query: async (_sql: string, [accounts]: [number[]]) => (current ? accounts.map((_, i) => ({ ...current, i: i + 1 })) : []) } as unknown as Pick<EntityManager, 'query'>,
    set: (change: Partial<StandingRow> | null) => {
      current = change && { ...current!, ...change };
    },
  };
};
const watching = (bills: number[]) => standing(bills).db;
/** The stream's next event, or the error that ended it. */
const outcome = (next: Promise<IteratorResult<ServiceEvent>>) => next.then((r) => r.value as ServiceEvent, (error: unknown) => error);

describe('eventStream', () => {
  it('yields the published events the user receives, narrowed by types and bills', async () => {
    const bus = createEventBus();
    const stream = eventStream(bus, watching([2900, 3089]), { accountId: 1, tier: 'pilot', keyId: 7 }, { types: ['bill.stage_changed'], billIds: [2900] });
    const first = stream.next();
    bus.publish([event('prediction.updated', 2900, 'evt_a'), event('bill.stage_changed', 3089, 'evt_b'), event('bill.stage_changed', 2950, 'evt_c'), event('bill.stage_changed', 2900, 'evt_d')]);
    expect((await first).value.id).toBe('evt_d');
    await stream.return(undefined);
    await bus.close();
  });

  it('hands over the rest of a batch at once (takeBuffered), and yields those events no more', async () => {
    const bus = createEventBus();
    const stream = eventStream(bus, watching([2900, 3089]), { accountId: 1, tier: 'pilot', keyId: 7 }, { billIds: [2900, 3089] });
    expect(stream.takeBuffered()).toEqual([]);
    const first = stream.next();
    bus.publish([event('prediction.updated', 2900, 'evt_a'), event('bill.stage_changed', 2950, 'evt_b'), event('bill.stage_changed', 3089, 'evt_c'), event('bill.stage_changed', 2900, 'evt_d')]);
    expect((await first).value.id).toBe('evt_a');
    expect(stream.takeBuffered().map((e) => e.id)).toEqual(['evt_c', 'evt_d']);
    expect(stream.takeBuffered()).toEqual([]);
    // the next pull waits for the next batch: nothing of the first is yielded twice
    const second = stream.next();
    bus.publish([event('bill.stage_changed', 3089, 'evt_e')]);
    expect((await second).value.id).toBe('evt_e');
    // untaken, the rest of a batch is yielded one by one as before
    const third = stream.next();
    bus.publish([event('bill.stage_changed', 2900, 'evt_f'), event('bill.stage_changed', 3089, 'evt_g')]);
    expect([(await third).value.id, (await stream.next()).value.id]).toEqual(['evt_f', 'evt_g']);
    await stream.return(undefined);
    await bus.close();
  });

  it('reads the standings of every subscription a batch reaches in one query, and again at the next batch', async () => {
    const bus = createEventBus();
    const asked: number[][] = [];
    const db = { query: async (_sql: string, [accounts]: [number[]]) => (asked.push(accounts), accounts.map((_, i) => ({ tier: 'pilot', key_revoked: false, bills: [2900], i: i + 1 }))) } as unknown as Pick<EntityManager, 'query'>;
    const streams = [1, 2, 3].map((accountId) => eventStream(bus, db, { accountId, tier: 'pilot', keyId: accountId }, {}));
    for (const id of ['evt_a', 'evt_b']) {
      const next = streams.map((s) => s.next());
      bus.publish([event('bill.stage_changed', 2900, id)]);
      expect((await Promise.all(next)).map((r) => r.value.id)).toEqual([id, id, id]);
    }
    expect(asked).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
    await Promise.all(streams.map((s) => s.return(undefined)));
    await bus.close();
  });

  it('stops listening as soon as it is returned, without waiting for another batch', async () => {
    const bus = createEventBus();
    const stream = eventStream(bus, watching([2900]), { accountId: 1, tier: 'pilot', keyId: 7 }, {});
    const pending = stream.next();
    expect(bus.subscribers()).toBe(1);
    const returned = await Promise.race([stream.return(undefined).then(() => 'returned'), new Promise((r) => setTimeout(() => r('still waiting'), 500))]);
    expect(returned).toBe('returned');
    expect(bus.subscribers()).toBe(0);
    expect((await pending).done).toBe(true);
    await bus.close();
  });

  it('checks the filter at once: an unknown type is a 400, a Pro-only type below Pro a 403', () => {
    const bus = createEventBus();
    expect(() => eventStream(bus, watching([]), { accountId: 1, tier: 'pilot', keyId: 7 }, { types: ['bill.renamed'] })).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
    expect(() => eventStream(bus, watching([]), { accountId: 1, tier: 'pilot', keyId: 7 }, { types: ['prediction.trending_up'] })).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });

  it('ends with SubscriptionLapsed (UNAUTHENTICATED) at the next batch once its key is revoked or its account deleted', async () => {
    for (const change of [{ key_revoked: true }, null]) {
      const bus = createEventBus();
      const account = standing([2900]);
      const stream = eventStream(bus, account.db, { accountId: 1, tier: 'pilot', keyId: 7 }, {});
      const first = stream.next();
      bus.publish([event('bill.stage_changed', 2900, 'evt_a')]);
      expect((await first).value.id).toBe('evt_a');
      account.set(change);
      const second = outcome(stream.next());
      bus.publish([event('bill.stage_changed', 2900, 'evt_b')]);
      const error = await second;
      expect(error).toBeInstanceOf(SubscriptionLapsed);
      expect(error).toMatchObject({ code: 'UNAUTHENTICATED' });
      await bus.close();
    }
  });

  it('ends with SubscriptionLapsed (FORBIDDEN) once the account is on Free', async () => {
    const bus = createEventBus();
    const account = standing([2900]);
    const stream = eventStream(bus, account.db, { accountId: 1, tier: 'pilot', keyId: 7 }, {});
    account.set({ tier: 'free' });
    const next = outcome(stream.next());
    bus.publish([event('bill.stage_changed', 2900, 'evt_a')]);
    const error = await next;
    expect(error).toBeInstanceOf(SubscriptionLapsed);
    expect(error).toMatchObject({ code: 'FORBIDDEN' });
    await bus.close();
  });

  it('after a move from Pro to Pilot, ends a stream of Pro-only types with FORBIDDEN and keeps the others at the Pilot tier', async () => {
    const bus = createEventBus();
    const account = standing([2900], 'pro');
    const proOnly = eventStream(bus, account.db, { accountId: 1, tier: 'pro', keyId: 7 }, { types: ['prediction.trending_up'] });
    const everything = eventStream(bus, account.db, { accountId: 1, tier: 'pro', keyId: 7 }, {});
    account.set({ tier: 'pilot' });
    const ended = outcome(proOnly.next());
    const received = outcome(everything.next());
    bus.publish([event('prediction.trending_up', 2900, 'evt_a'), event('prediction.updated', 2900, 'evt_b')]);
    const error = await ended;
    expect(error).not.toBeInstanceOf(SubscriptionLapsed);
    expect(error).toMatchObject({ code: 'FORBIDDEN', message: 'prediction.trending_up events need the pro tier' });
    expect(((await received) as ServiceEvent).id).toBe('evt_b');
    await everything.return(undefined);
    await bus.close();
  });
});
