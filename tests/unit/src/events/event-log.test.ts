import type { EntityManager } from 'typeorm';
import { createEventBus } from '../../../../src/events/bus';
import type { ServiceEvent } from '../../../../src/events/event';
import { EventLog } from '../../../../src/events/event-log';
import type { OutboxHandoff } from '../../../../src/events/webhooks/handoff';

const event: ServiceEvent = { id: 'evt_1', type: 'bill.stage_changed', timestamp: '2021-11-19T10:00:00.000Z', data: { bill_id: 2900 } };

it('tells that events were committed when they are published, never while their transaction runs', async () => {
  const bus = createEventBus();
  const order: string[] = [];
  // the events go in as one jsonb statement (src/db/json-rows.ts): a manager that knows the table's columns by their own names
  const metadata = { tableName: 'service_event', findColumnWithPropertyName: (property: string) => ({ databaseName: property }) };
  const manager = { connection: { getMetadata: () => metadata }, query: async () => order.push('insert') } as unknown as EntityManager;
  const log = new EventLog([async () => void order.push('sink')], bus, { committed: () => order.push('committed') } as unknown as OutboxHandoff);
  await log.record(manager, [event], '2021-11-19');
  expect(order).toEqual(['insert', 'sink']);
  log.publish([]);
  expect(order).toEqual(['insert', 'sink']);
  log.publish([event]);
  expect(order).toEqual(['insert', 'sink', 'committed']);
  await bus.close();
});
