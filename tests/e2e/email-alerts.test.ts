import type { ServiceEvent } from '../../src/events/event';
import { appWithSmtpServer, type SmtpTestApp } from '../support/smtp-app';

/**
 * Instant alert emails over HTTP and SMTP (issue 33): the notification setting of a watchlist
 * (REST PATCH validated at the edge, GraphQL, 404 for another account's), an event reaching a
 * verified owner's inbox with its headers and parts, the one-click unsubscribe without a log-in,
 * nothing to an unverified address, and the 50-a-day bound (which a test email does not use up).
 */
let t: SmtpTestApp;
beforeAll(async () => {
  t = await appWithSmtpServer();
});
afterAll(() => t.close());

let n = 0;
async function owner(options: { verified?: boolean; tier?: 'pilot' | 'pro' } = {}) {
  const email = `watcher${++n}@example.com`;
  const key = await t.userWithKey(options.tier ?? 'pilot', email);
  const accountId = await t.accountIdOf(email);
  if (options.verified !== false) await t.db.dataSource.query(`UPDATE account SET email_status = 'VERIFIED' WHERE id = $1`, [accountId]);
  const watchlist = await t.services.watchlists.create(accountId, { name: `Marriage law ${n}`, billIds: [2900] });
  return { email, key, accountId, watchlistId: watchlist.id };
}
const patch = (key: string, id: number, body: unknown) => t.http().patch(`/api/v1/dashboard/watchlists/${id}/notifications`).set('authorization', `Bearer ${key}`).send(body as object);
let e = 0;
const stageEvent = (billId = 2900): ServiceEvent => ({ id: `evt_mail_${++e}_${Date.now()}`, type: 'bill.stage_changed', timestamp: '2021-11-26T09:00:00.000Z', data: { bill_id: billId, stage_record_id: 1, stage: 'second_reading', house: 'Commons', date: '2021-11-26' } });
async function emit(events: ServiceEvent[]) {
  await t.services.dataSource.transaction((manager) => t.services.events.log.record(manager, events, '2021-11-26'));
  t.services.events.log.publish(events);
}
const mailsTo = (email: string) => t.smtp.received.filter((m) => m.envelopeTo.includes(email));
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('the notification setting', () => {
  it('validates each field at the edge with a 400 naming it, and answers the setting as it now is', async () => {
    const { key, watchlistId } = await owner();
    expect((await t.http().get(`/api/v1/dashboard/watchlists/${watchlistId}/notifications`).set('authorization', `Bearer ${key}`)).body).toEqual({
      watchlist_id: watchlistId,
      email: 'off',
      time: '08:00',
      day: 'monday',
      events: ['bill.stage_changed', 'bill.stage_scheduled', 'prediction.imminent_stage_change'],
    });
    for (const [body, detail] of [
      [{ email: 'hourly' }, 'email must be one of off, instant, daily, weekly'],
      [{ time: '25:00' }, 'time must be HH:MM (00:00 to 23:59, Europe/London)'],
      [{ time: 800 }, 'time must be HH:MM (00:00 to 23:59, Europe/London)'],
      [{ day: 'Funday' }, 'day must be one of monday, tuesday, wednesday, thursday, friday, saturday, sunday'],
      [{ events: [] }, expect.stringContaining('events must be a non-empty array')],
      [{ events: ['bill.exploded'] }, expect.stringContaining('events: "bill.exploded" is not an event type')],
      [{ events: ['prediction.trending_up'] }, 'events: prediction.trending_up needs the pro tier'],
      [{ colour: 'red' }, expect.stringContaining('colour')],
    ] as const) {
      const res = await patch(key, watchlistId, body);
      expect([res.status, res.body.detail]).toEqual([400, detail]);
    }
    const res = await patch(key, watchlistId, { email: 'weekly', day: 'friday', time: '17:30', events: ['bill.stage_changed'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ watchlist_id: watchlistId, email: 'weekly', time: '17:30', day: 'friday', events: ['bill.stage_changed'] });
    // GraphQL reads and changes the same setting
    const gql = await t.graphql(`mutation { setWatchlistNotifications(id: ${watchlistId}, input: { email: INSTANT }) { email time day events } }`, { key });
    expect(gql.body.data.setWatchlistNotifications).toEqual({ email: 'INSTANT', time: '17:30', day: 'FRIDAY', events: ['BILL_STAGE_CHANGED'] });
  });

  it('answers 404 for another account’s watchlist, on REST and GraphQL alike', async () => {
    const mine = await owner();
    const theirs = await owner();
    const res = await patch(mine.key, theirs.watchlistId, { email: 'instant' });
    expect(res.status).toBe(404);
    expect((await t.http().get(`/api/v1/dashboard/watchlists/${theirs.watchlistId}/notifications`).set('authorization', `Bearer ${mine.key}`)).status).toBe(404);
    const gql = await t.graphql(`mutation { setWatchlistNotifications(id: ${theirs.watchlistId}, input: { email: INSTANT }) { email } }`, { key: mine.key });
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.services.notifications.settingsOf(theirs.accountId, theirs.watchlistId)).email).toBe('off');
  });
});

describe('instant emails', () => {
  it('mails an event to a verified owner’s inbox: both parts, the bill’s title and page, the event id, Message-ID and one-click unsubscribe headers', async () => {
    const { email, key, watchlistId } = await owner();
    expect((await patch(key, watchlistId, { email: 'instant' })).status).toBe(200);
    // the same bill on a second watchlist of the account: still one email
    const second = await t.services.watchlists.create(await t.accountIdOf(email), { name: 'Second', billIds: [2900] });
    await patch(key, second.id, { email: 'instant' });
    const event = stageEvent();
    await emit([event]);
    await t.smtp.waitFor(t.smtp.received.length + 1);
    await settle();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    const { parsed } = mails[0];
    expect(parsed.headers.get('x-bill-progress-event-id')).toBe(event.id);
    expect(parsed.messageId).toMatch(/^<[0-9a-f]{32}@bills\.test>$/);
    expect(parsed.subject).toContain('Marriage and Civil Partnership (Minimum Age) Bill');
    expect(parsed.text).toContain('Marriage and Civil Partnership (Minimum Age) Bill');
    expect(parsed.text).toContain('https://bills.example.com/#/bills/2900');
    expect(parsed.html).toContain('href="https://bills.example.com/#/bills/2900"');
    expect(parsed.text).toContain(`https://bills.example.com/#/watchlists/${watchlistId}`);
    const raw = mails[0].raw;
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const link = /<(https:\/\/bills\.example\.com\/email\/unsubscribe\/[^>]+)>/.exec(raw.replace(/\r?\n[ \t]+/g, ' '))![1];
    expect(raw.replace(/\r?\n[ \t]+/g, ' ')).toMatch(/List-Unsubscribe: <https:\/\/bills\.example\.com\/email\/unsubscribe\/[^>]+>, <mailto:alerts@bills\.test\?subject=unsubscribe%20[^>]+>/);

    // one-click: a POST without a log-in turns this watchlist's email off
    const path = new URL(link).pathname;
    const page = await t.http().get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post">');
    expect((await t.services.notifications.settingsOf(await t.accountIdOf(email), watchlistId)).email).toBe('instant');
    const post = await t.http().post(path).type('form').send('List-Unsubscribe=One-Click');
    expect(post.status).toBe(200);
    expect((await t.services.notifications.settingsOf(await t.accountIdOf(email), watchlistId)).email).toBe('off');
    expect(t.logLines.join('')).not.toContain(path.split('/').pop()!);
    // a forged token opens nothing
    expect((await t.http().post(`/email/unsubscribe/${watchlistId}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });

  it('mails nothing to an unverified address, nor for a watchlist set to off or to other event types', async () => {
    const unverified = await owner({ verified: false });
    await patch(unverified.key, unverified.watchlistId, { email: 'instant' });
    const off = await owner();
    const other = await owner();
    await patch(other.key, other.watchlistId, { email: 'instant', events: ['bill.stage_scheduled'] });
    const event = stageEvent();
    await emit([event]);
    await settle();
    await t.services.mail.worker.runDue();
    for (const o of [unverified, off, other]) expect(mailsTo(o.email)).toHaveLength(0);
    // the unverified owner's email was not even written
    expect(await t.db.dataSource.query(`SELECT 1 FROM mail_message WHERE account_id = $1 AND event_id = $2`, [unverified.accountId, event.id])).toEqual([]);
  });

  it('sends at most 50 emails per account per UTC day, and records the rest for a digest; a test email the person asked for is not counted', async () => {
    const { email, key, accountId, watchlistId } = await owner();
    await patch(key, watchlistId, { email: 'instant' });
    await t.services.accountEmail.sendTest(accountId);
    await emit(Array.from({ length: 53 }, () => stageEvent()));
    const until = Date.now() + 30_000;
    while (mailsTo(email).length < 51 && Date.now() < until) await settle();
    await settle();
    expect(mailsTo(email)).toHaveLength(51);
    expect(mailsTo(email).filter((m) => /Bill Progress test email/.test(m.raw))).toHaveLength(1);
    const [{ n: waiting }] = (await t.db.dataSource.query(`SELECT count(*)::int AS n FROM mail_deferred_event WHERE account_id = $1 AND digested_at IS NULL`, [accountId])) as { n: number }[];
    expect(waiting).toBe(3);
  });
});
