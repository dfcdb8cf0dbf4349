import type { AddressInfo } from 'node:net';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { ServiceEvent } from '../../src/events/event';
import { TIER_LIMITS } from '../../src/quota/tier-limits';
import { startTestApp, type TestApp } from '../support/test-app';

/** GraphQL subscriptions on /graphql over graphql-ws: the third door of the gateway. */
let t: TestApp;
let url: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
  await new Promise<void>((resolve) => t.app.httpServer.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(t.app.httpServer.address() as AddressInfo).port}/graphql`;
  // the day before the period, the baseline every later refresh compares with
  t.services.clock.moveTo('2021-11-18');
  await t.services.events.refresh.run('2021-11-18');
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.dispose();
  await t?.close();
});

function client(connectionParams: Record<string, unknown> | undefined, onClose?: (code: number, reason: string) => void): Client {
  const c = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    on: { closed: (event) => onClose?.((event as { code: number }).code, (event as { reason: string }).reason) },
    onNonLazyError: () => undefined,
  });
  clients.push(c);
  return c;
}

/** The close code and reason a connection ends with. */
const closeOf = (params: Record<string, unknown> | undefined) =>
  new Promise<{ code: number; reason: string }>((resolve) => {
    client(params, (code, reason) => resolve({ code, reason }));
  });

interface Collected<T> {
  results: T[];
  errors: unknown[];
  next(count: number): Promise<T[]>;
  stop(): void;
}

function collect<T = Record<string, any>>(c: Client, query: string): Collected<T> {
  const results: T[] = [];
  const errors: unknown[] = [];
  const waiters: Array<() => void> = [];
  const stop = c.subscribe<T>({ query }, {
    next: (value) => {
      if (value.errors) errors.push(...value.errors);
      if (value.data) results.push(value.data as T);
      waiters.forEach((w) => w());
    },
    error: (error) => {
      errors.push(...(Array.isArray(error) ? error : [error]));
      waiters.forEach((w) => w());
    },
    complete: () => waiters.forEach((w) => w()),
  });
  return {
    results,
    errors,
    stop,
    next: (count) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited for ${count} results, got ${results.length}: ${JSON.stringify(errors)}`)), 15_000);
        const check = () => {
          if (results.length >= count || errors.length) {
            clearTimeout(timer);
            resolve(results.slice(0, count));
          }
        };
        waiters.push(check);
        check();
      }),
  };
}

/** Waits until the server holds `count` event subscriptions (at least; `exactly` for an ended one to be gone), so a refresh after it reaches them. */
async function subscribed(count: number, exactly = false): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (exactly ? t.services.events.bus.subscribers() !== count : t.services.events.bus.subscribers() < count) {
    if (Date.now() > deadline) throw new Error(`${t.services.events.bus.subscribers()} subscriptions open, waited for ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function proUserWatching(billIds: number[]): Promise<string> {
  const email = `watcher-${billIds.join('-')}-${Date.now()}@example.com`;
  const key = await t.userWithKey('pro', email);
  const accountId = await t.accountIdOf(email);
  await t.services.watchlists.create(accountId, { name: 'watched', billIds } as never);
  return key;
}

describe('connection_init', () => {
  it('closes with 4401 without a key, and with a key that is not one', async () => {
    expect((await closeOf(undefined)).code).toBe(4401);
    expect(await closeOf({ authorization: 'Bearer bp_notakey' })).toEqual({ code: 4401, reason: 'Invalid or revoked API key' });
    expect((await closeOf({ authorization: 'Basic abc' })).code).toBe(4401);
  });

  it('closes with 4403 for a Free user', async () => {
    const key = await t.userWithKey('free');
    expect((await closeOf({ 'x-api-key': key })).code).toBe(4403);
  });

  it('answers FORBIDDEN to a Pilot user asking for a Pro-only type, and BAD_USER_INPUT naming an unknown type', async () => {
    const c = client({ authorization: `Bearer ${await t.userWithKey('pilot')}` });
    const pro = collect(c, 'subscription { events(types: ["prediction.trending_up"]) { id } }');
    await pro.next(1).catch(() => undefined);
    expect(pro.errors).toEqual([expect.objectContaining({ message: 'prediction.trending_up events need the pro tier', extensions: { code: 'FORBIDDEN' } })]);
    const typed = collect(c, 'subscription { predictionTrendingUp { id } }');
    await typed.next(1).catch(() => undefined);
    expect(typed.errors).toEqual([expect.objectContaining({ extensions: { code: 'FORBIDDEN' } })]);
    const unknown = collect(c, 'subscription { events(types: ["bill.renamed"]) { id } }');
    await unknown.next(1).catch(() => undefined);
    expect(unknown.errors).toEqual([expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT' } })]);
    expect((unknown.errors[0] as Error).message).toContain('unknown event type "bill.renamed"');
  });

  it('answers a query over the socket as over HTTP, as a request of its own: one more API call', async () => {
    const email = `ws-query-${Date.now()}@example.com`;
    const key = await t.userWithKey('pro', email);
    const accountId = await t.accountIdOf(email);
    const c = client({ authorization: `Bearer ${key}` });
    const query = collect(c, '{ serviceStatus { today } }');
    const [answer] = await query.next(1);
    expect(query.errors).toEqual([]);
    expect(answer).toEqual((await t.graphql('{ serviceStatus { today } }', { key })).body.data);
    // the connection, the query over it, the query over HTTP
    const calls = await t.services.quotas.store.take(accountId, '2026-11-22', 'calls', 0, TIER_LIMITS.pro.calls);
    expect(calls.used).toBe(3);
  });

  it('holds a query or mutation over the socket to the limits of /graphql: cost, mutations per request', async () => {
    const c = client({ authorization: `Bearer ${await t.userWithKey('pro')}` });
    const aliases = Array.from({ length: 10 }, (_, i) => `a${i}: bills(first: 1, filter: { titleContains: "x" }) { totalCount }`).join(' ');
    const costly = collect(c, `{ ${aliases} }`);
    await costly.next(1).catch(() => undefined);
    expect(costly.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^This query would cost \d+, over the limit of 5000/), extensions: { code: 'BAD_USER_INPUT' } })]);
    const mutations = collect(c, `mutation { ${Array.from({ length: 6 }, (_, i) => `w${i}: createWatchlist(input: { name: "ws ${i}" }) { id }`).join(' ')} }`);
    await mutations.next(1).catch(() => undefined);
    expect(mutations.errors).toEqual([expect.objectContaining({ message: 'This request holds 6 mutations; at most 5 may be sent in one request', extensions: { code: 'BAD_USER_INPUT' } })]);
  });
});

describe('limits', () => {
  it('closes a connection whose frame is over 100 KB (1009), before it is read as a message, key or not', async () => {
    const socket = new WebSocket(url, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(200 * 1024) } }));
    expect(await closed).toBe(1009);
  });

  it('refuses a connection\'s 101st subscription with FORBIDDEN naming the limit, and takes one again once another ends', async () => {
    const c = client({ authorization: `Bearer ${await t.userWithKey('pro')}` });
    const open = t.services.events.bus.subscribers();
    const subscriptions = Array.from({ length: 100 }, () => collect(c, 'subscription { events { id } }'));
    await subscribed(open + 100);
    const extra = collect(c, 'subscription { events { id } }');
    await extra.next(1).catch(() => undefined);
    expect(extra.errors).toEqual([expect.objectContaining({ message: 'Subscription limit reached: at most 100 subscriptions on one connection', extensions: { code: 'FORBIDDEN' } })]);
    expect(subscriptions.every((s) => s.errors.length === 0)).toBe(true);
    subscriptions[0].stop();
    await subscribed(open + 99, true);
    const again = collect(c, 'subscription { events { id } }');
    await subscribed(open + 100, true);
    for (const s of [again, ...subscriptions]) s.stop();
    await subscribed(open, true);
  });

  it('closes an account\'s 21st open connection with 4403 naming the limit, whichever of its keys it uses', async () => {
    const email = `sockets-${Date.now()}@example.com`;
    const key = await t.userWithKey('pro', email);
    const other = (await t.services.apiKeys.create(email)).api_key;
    const connected = (params: Record<string, unknown>) =>
      new Promise<Client>((resolve, reject) => {
        const c = client(params, (code, reason) => reject(new Error(`closed ${code} ${reason}`)));
        c.on('connected', () => resolve(c));
      });
    const open: Client[] = [];
    for (let i = 0; i < 20; i++) open.push(await connected({ authorization: `Bearer ${i % 2 ? key : other}` }));
    const refused = await connected({ authorization: `Bearer ${other}` }).then(
      () => 'admitted',
      (error: Error) => error.message,
    );
    expect(refused).toBe('closed 4403 Connection limit reached: at most 20 open WebSocket connections per account');
    // another account is not affected, and a closed connection frees its place
    await connected({ authorization: `Bearer ${await t.userWithKey('pro')}` });
    await open[0].dispose();
    const deadline = Date.now() + 15_000;
    for (;;) {
      const next = await connected({ authorization: `Bearer ${key}` }).catch(() => null);
      if (next) break;
      if (Date.now() > deadline) throw new Error('a closed connection did not free its place');
    }
  });
});

describe('events', () => {
  it('delivers the events of watched bills, with the ids of the event log, to `events` and the typed field alike', async () => {
    const watching = client({ authorization: `Bearer ${await proUserWatching([2900])}` });
    const other = client({ authorization: `Bearer ${await proUserWatching([3089])}` });
    const all = collect(watching, 'subscription { events { id type timestamp data } }');
    const typed = collect(watching, 'subscription { billStageChanged(billIds: [2900]) { id billId stage house date } }');
    const elsewhere = collect(other, 'subscription { billStageChanged { id billId } }');
    await subscribed(3);

    // 19 November 2021: the Marriage and Civil Partnership (Minimum Age) Bill's second reading
    t.services.clock.moveTo('2021-11-19');
    const report = await t.services.events.refresh.run('2021-11-19');
    const logged = report.events.filter((e: ServiceEvent) => e.data.bill_id === 2900);
    const stageChange = logged.find((e) => e.type === 'bill.stage_changed')!;
    expect(stageChange.data).toMatchObject({ stage: 'second_reading', house: 'Commons', date: '2021-11-19' });

    const received = await all.next(logged.length);
    expect(received.map((r) => r.events.id).sort()).toEqual(logged.map((e) => e.id).sort());
    const [stage] = await typed.next(1);
    expect(stage.billStageChanged).toEqual({ id: stageChange.id, billId: 2900, stage: 'second_reading', house: 'Commons', date: '2021-11-19' });
    const fromLog = received.find((r) => r.events.id === stageChange.id)!.events;
    expect(fromLog).toEqual({ id: stageChange.id, type: 'bill.stage_changed', timestamp: stageChange.timestamp, data: stageChange.data });
    expect(elsewhere.results).toEqual([]);
    for (const s of [all, typed, elsewhere]) s.stop();
    // a stopped subscription ends at once, not at the next event
    await subscribed(0, true);
  });

  it('delivers bill.stage_scheduled to a Pilot subscriber of billStageScheduled, as the refresh recorded it', async () => {
    const email = `pilot-scheduled-${Date.now()}@example.com`;
    const key = await t.userWithKey('pilot', email);
    await t.services.watchlists.create(await t.accountIdOf(email), { name: 'watched', billIds: [2900] } as never);
    const open = t.services.events.bus.subscribers();
    const typed = collect(client({ authorization: `Bearer ${key}` }), 'subscription { billStageScheduled(billIds: [2900]) { id billId title stage house scheduledFor firstSeen previouslyScheduledFor } }');
    await subscribed(open + 1);

    // a sync on the 20th saw the bill's committee stage set down for the 30th
    await t.db.dataSource.query(
      `INSERT INTO scheduled_sitting (bill_id, bill_stage_id, stage, house, scheduled_for, first_seen_at, first_seen_day) VALUES (2900, 990001, 'committee', 'Commons', '2021-11-30', now(), '2021-11-20')`,
    );
    t.services.clock.moveTo('2021-11-20');
    const report = await t.services.events.refresh.run('2021-11-20');
    const scheduled = report.events.find((e: ServiceEvent) => e.type === 'bill.stage_scheduled')!;
    const [received] = await typed.next(1);
    expect(received.billStageScheduled).toEqual({
      id: scheduled.id,
      billId: 2900,
      title: expect.stringMatching(/Bill$/),
      stage: 'committee',
      house: 'Commons',
      scheduledFor: '2021-11-30',
      firstSeen: '2021-11-20',
      previouslyScheduledFor: null,
    });
    typed.stop();
    await subscribed(open, true);
  });

  it('closes the connection at the next event once its key is revoked (4401) or its account is moved to Free (4403)', async () => {
    const lapses = [
      { code: 4401, reason: 'The API key of this subscription was revoked', lapse: (email: string, key: string) => t.services.apiKeys.revoke(key.slice(0, 11)) },
      { code: 4403, reason: 'Events need the pilot or pro tier: this account is on free now', lapse: (email: string) => t.services.accounts.setTier(email, 'free') },
    ];
    for (const [n, { code, reason, lapse }] of lapses.entries()) {
      const email = `lapsing-${n}@example.com`;
      const key = await t.userWithKey('pro', email);
      await t.services.watchlists.create(await t.accountIdOf(email), { name: 'watched', billIds: [2900] } as never);
      let closed!: Promise<{ code: number; reason: string }>;
      const c = client({ authorization: `Bearer ${key}` });
      closed = new Promise((resolve) => c.on('closed', (event) => resolve(event as { code: number; reason: string })));
      const open = t.services.events.bus.subscribers();
      const events = collect(c, 'subscription { events { id } }');
      await subscribed(open + 1);
      const event = (id: string): ServiceEvent => ({ id, type: 'bill.stage_changed', timestamp: '2021-11-19T10:00:00.000Z', data: { bill_id: 2900 } });
      t.services.events.bus.publish([event(`evt_before_${n}`)]);
      await events.next(1);

      await lapse(email, key);
      t.services.events.bus.publish([event(`evt_after_${n}`)]);
      expect(await closed).toMatchObject({ code, reason });
      expect(events.results.map((r) => r.events.id)).toEqual([`evt_before_${n}`]);
    }
  });

  it('closes open subscriptions when the server shuts down', async () => {
    const key = await t.userWithKey('pro');
    let closed!: Promise<number>;
    const c = client({ authorization: `Bearer ${key}` });
    const open = t.services.events.bus.subscribers();
    closed = new Promise<number>((resolve) => c.on('closed', (event) => resolve((event as { code: number }).code)));
    collect(c, 'subscription { events { id } }');
    await subscribed(open + 1);
    await t.app.stop();
    expect(await closed).toBe(1001);
  });
});
