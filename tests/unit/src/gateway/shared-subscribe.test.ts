import { type ExecutionResult, GraphQLBoolean, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import type { EntityManager } from 'typeorm';
import type { RequestContext } from '../../../../src/request/context';
import { createEventBus, type EventBus } from '../../../../src/events/bus';
import type { ServiceEvent } from '../../../../src/events/event';
import { eventStream, type Subscriber } from '../../../../src/events/event-stream';
import { audienceOf } from '../../../../src/gateway/pipeline';
import { sharedSubscribe } from '../../../../src/gateway/shared-subscribe';
import type { Tier } from '../../../../src/vocabulary';

/**
 * A schema shaped like ours: the source is the real eventStream (types, billIds, standings), and a
 * field reads the subscriber's tier from the context, as the access checks do.
 */
let executions = 0;
const Event = new GraphQLObjectType<ServiceEvent, TestContext>({
  name: 'Event',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLString), resolve: (e) => (executions++, e.id) },
    billId: { type: GraphQLInt, resolve: (e) => e.data.bill_id },
    proNote: { type: GraphQLString, resolve: (e, _a, ctx) => (ctx.user.tier === 'pro' ? `pro:${e.id}` : null) },
  },
});
type TestContext = Pick<RequestContext, 'user'> & { user: NonNullable<RequestContext['user']>; bus: EventBus; db: Pick<EntityManager, 'query'> };
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { noop: { type: GraphQLBoolean } } }),
  subscription: new GraphQLObjectType<unknown, TestContext>({
    name: 'Subscription',
    fields: {
      events: {
        type: Event,
        args: { types: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) }, billIds: { type: new GraphQLList(new GraphQLNonNull(GraphQLInt)) } },
        subscribe: (_root, args: { types?: string[]; billIds?: number[] }, ctx) => eventStream(ctx.bus, ctx.db, ctx.user as Subscriber, args),
        resolve: (e: unknown) => e,
      },
    },
  }),
});

const event = (type: ServiceEvent['type'], billId: number, id: string): ServiceEvent => ({ id, type, timestamp: '2021-11-19T10:00:00.000Z', data: { bill_id: billId } });
/** Every account watches bills 1 and 2, at the tier it connected with. */
const db = { query: async (_sql: string, [accounts]: [number[]]) => accounts.map((accountId, i) => ({ i: i + 1, tier: accountId >= 100 ? 'pro' : 'pilot', key_revoked: false, bills: [1, 2] })) } as unknown as Pick<EntityManager, 'query'>;
const QUERY = 'subscription ($billIds: [Int!], $types: [String!], $full: Boolean = true) { events(billIds: $billIds, types: $types) { id billId @include(if: $full) proNote } }';

async function subscribeAs(bus: EventBus, accountId: number, tier: Tier, variables: Record<string, unknown>) {
  const contextValue: TestContext = { user: { accountId, tier, credential: 'api-key', keyId: accountId, email: `${accountId}@example.com`, sessionId: null }, bus, db };
  const stream = await sharedSubscribe({ schema, document: parse(QUERY), variableValues: variables, contextValue }, audienceOf(contextValue as unknown as RequestContext));
  if (!(Symbol.asyncIterator in stream)) throw new Error(JSON.stringify(stream));
  return stream;
}
/** What each stream received of one published batch: its results until nothing more is pending. */
async function receive(bus: EventBus, streams: AsyncGenerator<ExecutionResult>[], batch: ServiceEvent[], perStream: number[]) {
  const got = streams.map(async (s, i) => {
    const results: unknown[] = [];
    for (let n = 0; n < perStream[i]; n++) results.push((await s.next()).value.data.events);
    return results;
  });
  bus.publish(batch);
  return Promise.all(got);
}

describe('sharedSubscribe', () => {
  const batch = [event('bill.stage_changed', 1, 'evt_1'), event('prediction.updated', 2, 'evt_2'), event('prediction.updated', 1, 'evt_3')];

  it('executes an event once for subscriptions alike, and apart for those that differ in filters, variables or tier', async () => {
    const bus = createEventBus();
    const alike = await Promise.all([1, 2, 3].map((a) => subscribeAs(bus, a, 'pilot', {})));
    const bill2 = await subscribeAs(bus, 4, 'pilot', { billIds: [2] });
    const stages = await subscribeAs(bus, 5, 'pilot', { types: ['bill.stage_changed'] });
    const short = await subscribeAs(bus, 6, 'pilot', { full: false });
    const pro = await subscribeAs(bus, 100, 'pro', {});
    executions = 0;
    const [a1, a2, a3, b2, st, sh, pr] = await receive(bus, [...alike, bill2, stages, short, pro], batch, [3, 3, 3, 1, 1, 3, 3]);

    const all = [
      { id: 'evt_1', billId: 1, proNote: null },
      { id: 'evt_2', billId: 2, proNote: null },
      { id: 'evt_3', billId: 1, proNote: null },
    ];
    expect([a1, a2, a3]).toEqual([all, all, all]);
    expect(b2).toEqual([all[1]]);
    expect(st).toEqual([all[0]]);
    expect(sh).toEqual(all.map(({ id, proNote }) => ({ id, proNote })));
    expect(pr).toEqual(all.map((e) => ({ ...e, proNote: `pro:${e.id}` })));
    // 3 for the three alike (9 unshared), 1 for each filtered one (their variables differ), 3 without billId, 3 for Pro
    expect(executions).toBe(11);
    await Promise.all([...alike, bill2, stages, short, pro].map((s) => s.return(undefined)));
    await bus.close();
  });

  it('executes the rest of a batch with its first event and hands the results over at once (takeReady), in order, once', async () => {
    const bus = createEventBus();
    const stream = await subscribeAs(bus, 1, 'pilot', {});
    if (!('takeReady' in stream)) throw new Error('no takeReady');
    expect(stream.takeReady()).toEqual([]);
    executions = 0;
    // events of their own: the results of the batch above are still shared by its event objects
    const fresh = batch.map((e) => ({ ...e }));
    const [[first]] = await receive(bus, [stream], fresh, [1]);
    expect(first).toEqual({ id: 'evt_1', billId: 1, proNote: null });
    // the other two were executed beside the first: ready without a pull each
    expect(executions).toBe(3);
    expect(stream.takeReady().map((r) => r.data?.events)).toEqual([
      { id: 'evt_2', billId: 2, proNote: null },
      { id: 'evt_3', billId: 1, proNote: null },
    ]);
    expect(stream.takeReady()).toEqual([]);
    const [again] = await receive(bus, [stream], [event('bill.stage_changed', 2, 'evt_5')], [1]);
    expect(again).toEqual([{ id: 'evt_5', billId: 2, proNote: null }]);
    await stream.return(undefined);
    await bus.close();
  });

  it('gives each event its own result: the next batch is executed afresh', async () => {
    const bus = createEventBus();
    const streams = await Promise.all([1, 2].map((a) => subscribeAs(bus, a, 'pilot', {})));
    await receive(bus, streams, batch.slice(0, 1), [1, 1]);
    const [again] = await receive(bus, streams, [event('bill.stage_changed', 1, 'evt_4')], [1, 1]);
    expect(again).toEqual([{ id: 'evt_4', billId: 1, proNote: null }]);
    await Promise.all(streams.map((s) => s.return(undefined)));
    await bus.close();
  });
});
