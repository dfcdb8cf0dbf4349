import type { EntityManager } from 'typeorm';
import { createEventBus } from '../../../../src/events/bus';
import type { ServiceEvent } from '../../../../src/events/event';
import { eventStream } from '../../../../src/events/event-stream';

const event = (type: ServiceEvent['type'], billId: number, id: string): ServiceEvent => ({ id, type, timestamp: '2021-11-19T10:00:00.000Z', data: { bill_id: billId } });
const watching = (bills: number[]) => ({ query: async () => bills.map((bill_id) => ({ bill_id })) }) as unknown as Pick<EntityManager, 'query'>;

describe('eventStream', () => {
  it('yields the published events the user receives, narrowed by types and bills', async () => {
    const bus = createEventBus();
    const stream = eventStream(bus, watching([2900, 3089]), { accountId: 1, tier: 'pilot' }, { types: ['bill.stage_changed'], billIds: [2900] });
    const first = stream.next();
    bus.publish([event('prediction.updated', 2900, 'evt_a'), event('bill.stage_changed', 3089, 'evt_b'), event('bill.stage_changed', 2950, 'evt_c'), event('bill.stage_changed', 2900, 'evt_d')]);
    expect((await first).value.id).toBe('evt_d');
    await stream.return(undefined);
    await bus.close();
  });

  it('checks the filter at once: an unknown type is a 400, a Pro-only type below Pro a 403', () => {
    const bus = createEventBus();
    expect(() => eventStream(bus, watching([]), { accountId: 1, tier: 'pilot' }, { types: ['bill.renamed'] })).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
    expect(() => eventStream(bus, watching([]), { accountId: 1, tier: 'pilot' }, { types: ['prediction.trending_up'] })).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });
});
