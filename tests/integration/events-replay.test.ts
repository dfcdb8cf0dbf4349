import { replay } from '../../src/services/replay';
import type { ServiceEvent } from '../../src/events/event';
import { timeBucket } from '../../src/events/prediction-point';
import { type EventsFixture, startEventsFixture } from '../support/events-fixture';

/** The refresh replayed over November and December 2021 on real bills: each rule as real history fires it. */
let f: EventsFixture;
let events: ServiceEvent[];
let proAccount: number;
const received: ServiceEvent[][] = [];

beforeAll(async () => {
  f = await startEventsFixture({ day: '2021-10-31' });
  // a Pro user watching the Telecommunications (Security) Bill, alerted when Royal Assent passes 0.95
  const account = await f.services.accounts.create('pro@example.com', 'pro');
  proAccount = account.id;
  const watchlist = await f.services.watchlists.create(account.id, { name: 'telecoms', billIds: [2806] } as never);
  await f.services.alerts.create(account.id, 'pro', { watchlistId: watchlist.id, alertType: 'probability', thresholdValue: 0.95 });
  // the baseline: the day before the period
  await f.services.events.refresh.run('2021-10-31');
  const subscription = f.services.events.bus.subscribe();
  void (async () => {
    for await (const batch of { [Symbol.asyncIterator]: () => subscription }) received.push(batch);
  })();
  const report = await replay(f.services.events.refresh, f.clock, '2021-11-01', '2021-12-31');
  expect(report.days).toBe(61);
  events = (await f.db.dataSource.query(`SELECT id, type, bill_id, account_id, service_day::text AS day, data FROM service_event ORDER BY recorded_at, id`)).map(
    (r: { id: string; type: string; account_id: number | null; day: string; data: ServiceEvent['data'] }) => ({ id: r.id, type: r.type, timestamp: r.day, data: r.data, accountId: r.account_id ?? undefined }),
  );
  await subscription.return?.();
}, 120_000);

afterAll(() => f?.close());

it('moves the service day to the end of the period', () => {
  expect(f.clock.today()).toBe('2021-12-31');
});

it('bill.stage_changed: one event per stage record first sitting in the period, on its day, with its stage and house', () => {
  const expected = f
    .stages()
    .filter((s) => s.firstDate && s.firstDate >= '2021-11-01' && s.firstDate <= '2021-12-31')
    .map((s) => `${s.firstDate} ${s.billId} ${s.stage} ${s.house}`)
    .sort();
  const got = events
    .filter((e) => e.type === 'bill.stage_changed')
    .map((e) => {
      expect(e.data.date).toBe(e.timestamp);
      return `${e.data.date} ${e.data.bill_id} ${e.data.stage} ${e.data.house}`;
    })
    .sort();
  expect(expected.length).toBeGreaterThan(20);
  expect(got).toEqual(expected);
  expect(got).toContain('2021-11-17 2806 royal_assent Unassigned');
});

it('prediction.updated: Royal Assent of the Telecommunications (Security) Act moves its probability to 1 on the day', () => {
  const assent = events.find((e) => e.type === 'prediction.updated' && e.data.bill_id === 2806 && e.timestamp === '2021-11-17')!;
  expect(assent).toBeDefined();
  const data = assent.data as unknown as { predictions: { royal_assent: { probability: number } }; previous: { royal_assent: { probability: number }; reference_date: string } };
  expect(data.predictions.royal_assent.probability).toBe(1);
  expect(data.previous.royal_assent.probability).toBeLessThan(1);
  expect(data.previous.reference_date < '2021-11-17').toBe(true);
});

it('prediction.updated: every event moved a probability by at least 0.02 or the ETA into another time bucket, against the previous values it carries', () => {
  const updates = events.filter((e) => e.type === 'prediction.updated');
  expect(updates.length).toBeGreaterThan(0);
  for (const e of updates) {
    const d = e.data as any;
    const moved =
      Math.abs(d.predictions.royal_assent.probability - d.previous.royal_assent.probability) >= 0.02 - 1e-9 ||
      Math.abs(d.predictions.next_stage_30d.probability - d.previous.next_stage_30d.probability) >= 0.02 - 1e-9 ||
      (d.predictions.timeline_eta.days === null) !== (d.previous.timeline_eta.days === null) ||
      timeBucket(d.predictions.timeline_eta.days) !== timeBucket(d.previous.timeline_eta.days);
    expect(moved).toBe(true);
  }
});

it('prediction.high_probability: only on an upward crossing of 0.8', () => {
  for (const e of events.filter((x) => x.type === 'prediction.high_probability')) {
    const d = e.data as any;
    expect(d.previous.royal_assent.probability).toBeLessThan(0.8);
    expect(d.predictions.royal_assent.probability).toBeGreaterThanOrEqual(0.8);
  }
  const before = events.find((e) => e.type === 'prediction.updated' && e.data.bill_id === 2806 && e.timestamp === '2021-11-17')!.data as any;
  const crossed = events.some((e) => e.type === 'prediction.high_probability' && e.data.bill_id === 2806 && e.timestamp === '2021-11-17');
  expect(crossed).toBe(before.previous.royal_assent.probability < 0.8);
});

it('prediction.crossed_threshold: the Pro user’s threshold fires for that account, with its trigger recorded', async () => {
  const crossed = events.filter((e) => e.type === 'prediction.crossed_threshold');
  expect(crossed.length).toBeGreaterThanOrEqual(1);
  const first = crossed[0];
  expect(first.accountId).toBe(proAccount);
  expect(first.data).toMatchObject({ bill_id: 2806, alert_type: 'probability', threshold_value: 0.95 });
  expect(first.data.value as number).toBeGreaterThan(0.95);
  const [trigger] = await f.db.dataSource.query('SELECT id, source, reference_date::text AS day FROM alert_trigger WHERE id = $1', [first.data.trigger_id]);
  expect(trigger).toMatchObject({ source: 'scheduled', day: first.timestamp });
});

it('every event has its bill’s snapshot of that day, and a unique evt_ id; the bus carried exactly the logged events', async () => {
  const snapshots = new Set((await f.db.dataSource.query(`SELECT bill_id || ' ' || reference_date::text AS k FROM prediction_snapshot`)).map((r: { k: string }) => r.k));
  for (const e of events.filter((x) => x.type.startsWith('prediction.'))) expect(snapshots).toContain(`${e.data.bill_id} ${e.timestamp}`);
  const ids = events.map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
  expect(received.flat().map((e) => e.id).sort()).toEqual([...ids].sort());
});

it('a second refresh of the same day, data and model does nothing', async () => {
  const again = await f.services.events.refresh.run('2021-12-31');
  expect(again.ran).toBe(false);
});
