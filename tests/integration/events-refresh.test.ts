import type { EntityManager } from 'typeorm';
import type { ServiceEvent } from '../../src/events/event';
import { type EventsFixture, startEventsFixture } from '../support/events-fixture';

/** The refresh's transaction: snapshots, events, sink writes and its record stand or fall together. */
let f: EventsFixture;
let failSink = false;
const sunk: { events: ServiceEvent[]; loggedInTransaction: number }[] = [];

const sink = async (manager: EntityManager, events: readonly ServiceEvent[]) => {
  // the sink runs inside the refresh's transaction: the events are logged there already
  const [{ n }] = await manager.query('SELECT count(*)::int AS n FROM service_event WHERE id = ANY($1)', [events.map((e) => e.id)]);
  sunk.push({ events: [...events], loggedInTransaction: n });
  if (failSink) throw new Error('outbox unavailable');
};

const count = async (sql: string, params: unknown[] = []) => ((await f.db.dataSource.query(sql, params)) as { n: number }[])[0].n;

beforeAll(async () => {
  f = await startEventsFixture({ sinks: [sink] });
  await f.services.events.refresh.run('2021-11-16');
}, 120_000);

afterAll(() => f?.close());

it('a failing sink rolls the whole refresh back: no snapshot, no event, no record that it ran', async () => {
  failSink = true;
  const before = { snapshots: await count('SELECT count(*)::int AS n FROM prediction_snapshot'), events: await count('SELECT count(*)::int AS n FROM service_event') };
  const received: ServiceEvent[][] = [];
  const subscription = f.services.events.bus.subscribe();
  const reading = (async () => {
    for await (const batch of { [Symbol.asyncIterator]: () => subscription }) received.push(batch);
  })();
  await expect(f.services.events.refresh.run('2021-11-17')).rejects.toThrow('outbox unavailable');
  expect(sunk.at(-1)!.events.length).toBeGreaterThan(0);
  expect(await count('SELECT count(*)::int AS n FROM prediction_snapshot')).toBe(before.snapshots);
  expect(await count('SELECT count(*)::int AS n FROM service_event')).toBe(before.events);
  expect(await count(`SELECT count(*)::int AS n FROM event_refresh WHERE service_day = '2021-11-17'`)).toBe(0);

  // the next attempt emits the same day's events afresh, commits them, and only then publishes them
  failSink = false;
  const report = await f.services.events.refresh.run('2021-11-17');
  expect(report.ran).toBe(true);
  const last = sunk.at(-1)!;
  expect(last.loggedInTransaction).toBe(last.events.length);
  expect(last.events.map((e) => e.type)).toContain('bill.stage_changed');
  expect(await count(`SELECT count(*)::int AS n FROM service_event WHERE service_day = '2021-11-17'`)).toBe(last.events.length);
  await new Promise((resolve) => setImmediate(resolve));
  await subscription.return?.();
  await reading;
  expect(received.flat().map((e) => e.id)).toEqual(last.events.map((e) => e.id));
});

it('an event is never recorded without the snapshot it was computed from', async () => {
  const orphans = await count(
    `SELECT count(*)::int AS n FROM service_event e WHERE e.type LIKE 'prediction.%'
       AND NOT EXISTS (SELECT 1 FROM prediction_snapshot s WHERE s.bill_id = e.bill_id AND s.reference_date = e.service_day)`,
  );
  expect(await count(`SELECT count(*)::int AS n FROM service_event WHERE type LIKE 'prediction.%'`)).toBeGreaterThan(0);
  expect(orphans).toBe(0);
});

it('a refresh of a day already refreshed on the same data and model does no work', async () => {
  const snapshots = await count('SELECT count(*)::int AS n FROM prediction_snapshot');
  const calls = sunk.length;
  expect((await f.services.events.refresh.run('2021-11-17')).ran).toBe(false);
  expect(sunk.length).toBe(calls);
  expect(await count('SELECT count(*)::int AS n FROM prediction_snapshot')).toBe(snapshots);
});

it('a periodic run queued for a day the service has moved past (a replay went on) does nothing', async () => {
  f.clock.moveTo('2021-11-19');
  const stale = await f.services.events.refresh.run('2021-11-18', { whileToday: true });
  expect(stale.ran).toBe(false);
  expect(await count(`SELECT count(*)::int AS n FROM event_refresh WHERE service_day = '2021-11-18'`)).toBe(0);
});

it('after a gap of several days, a bill enacted during it gets its last snapshot and its events', async () => {
  f.clock.moveTo('2021-12-10');
  await f.services.events.refresh.run('2021-12-10');
  // the Armed Forces Act's Royal Assent (15 December) falls in the gap
  f.clock.moveTo('2021-12-20');
  const report = await f.services.events.refresh.run('2021-12-20');
  const armedForces = report.events.filter((e) => e.data.bill_id === 2822).map((e) => e.type);
  expect(armedForces).toEqual(expect.arrayContaining(['bill.stage_changed', 'prediction.updated']));
  const [snapshot] = (await f.db.dataSource.query(`SELECT royal_assent FROM prediction_snapshot WHERE bill_id = 2822 AND reference_date = '2021-12-20'`)) as { royal_assent: number }[];
  expect(snapshot?.royal_assent).toBe(1);
});
