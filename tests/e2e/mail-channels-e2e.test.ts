import { XMLParser } from 'fast-xml-parser';
import ICAL from 'ical.js';
import { eventually } from '../support/eventually';
import { type FakeBillsApi, recordLordsReport, setDownLordsThirdReading } from '../support/fixture-bills-api';
import { startLiveServer, type LiveServer } from '../support/live-server';
import { adminCli, type ServerProcess, startServerProcess, waitUntilReady } from '../support/processes';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import { usingPostgres } from '../support/test-database';

// Email, calendar and Atom end to end (issue 33): the built server as its own process, following a
// fake Bills API whose answers change between syncs, mailing a real SMTP server (smtp-server, read
// with mailparser); the calendar read with ical.js, the Atom feed with fast-xml-parser. Two verified
// readers watch one bill with instant email; the cases run in order on one server (one restart, by
// SIGKILL), each API change making one event: a stage recorded, then a third reading set down and moved;
// last, two more readers get a daily digest at the server's own clock's next minute.

const TODAY = '2026-10-14';
const BILL = 4065;
const TITLE = 'Armed Forces Bill';
const INTERVAL_SECONDS = 2;
const PUBLIC_URL = 'https://bills.example.com';
/** a change reaches the mailbox within one sync interval and this */
const SLACK_MS = 10_000;

let live: LiveServer;
let api: FakeBillsApi;
let smtp: TestSmtpServer;
let server: ServerProcess;
let env: Record<string, string>;

interface Reader {
  email: string;
  key: string;
  watchlistId: number;
  calendarUrl: string;
  feedUrl: string;
}
let alice: Reader;
let bob: Reader;

/** A request to the server as it now runs (a restart moves its port); `link`s given out start with PUBLIC_URL. */
const on = (link: string) => `${server.url}${new URL(link, PUBLIC_URL).pathname}`;
const rest = async (method: string, urlPath: string, key: string, body?: unknown) => {
  const res = await fetch(`${server.url}/api/v1${urlPath}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const to = (email: string) => (m: ReceivedMail) => m.envelopeTo.includes(email);
const eventIdOf = (m: ReceivedMail) => m.parsed.headers.get('x-bill-progress-event-id') as string;
/** The first accepted mail to `email` whose subject matches (of those accepted after the `after`th), once it has arrived. */
const mailTo = (email: string, subject: RegExp, timeoutMs = INTERVAL_SECONDS * 1000 + SLACK_MS, after = 0) =>
  eventually(async () => smtp.received.slice(after).find((m) => to(email)(m) && subject.test(m.parsed.subject ?? '')), timeoutMs);
const settle = (ms = 1_500) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks for a verification link, and opens the one that arrives: no log-in, the link is the credential. */
async function verify(email: string, key: string): Promise<void> {
  const before = smtp.received.length;
  expect((await rest('POST', '/account/verification-email', key)).status).toBe(200);
  const mail = await mailTo(email, /Confirm your email address/, undefined, before);
  const link = /https:\/\/bills\.example\.com\/account\/verify-email\/\S+/.exec(mail.parsed.text ?? '')![0];
  expect((await fetch(on(link))).status).toBe(200);
  expect((await rest('GET', '/account', key)).body.email_status).toBe('VERIFIED');
}

/**
 * A Pilot account made by the operator, its address verified by opening the link it was mailed (no
 * log-in), with a watchlist of `billIds` (BILL) that mails its stage events at once, or as `notifications` says.
 */
async function verifiedReader(email: string, { billIds = [BILL], notifications = { email: 'instant' } as Record<string, string> } = {}): Promise<Reader> {
  expect((await adminCli(['create-user', '--email', email, '--tier', 'pilot'], env)).code).toBe(0);
  const key = (await adminCli(['create-key', '--email', email], env)).json.api_key as string;
  expect((await rest('GET', '/account', key)).body.email_status).toBe('UNVERIFIED');
  await verify(email, key);
  const created = await rest('POST', '/dashboard/watchlists', key, { name: `${email}'s bills`, bill_ids: billIds });
  expect(created.status).toBe(200);
  // the stage events only: the predictions' own events would make the count of mails depend on the model
  const set = await rest('PATCH', `/dashboard/watchlists/${created.body.id}/notifications`, key, { ...notifications, events: ['bill.stage_changed', 'bill.stage_scheduled'] });
  expect(set.body).toMatchObject(notifications);
  return { email, key, watchlistId: created.body.id, calendarUrl: created.body.calendar_url, feedUrl: created.body.feed_url };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  live = await startLiveServer({ today: TODAY, intervalSeconds: INTERVAL_SECONDS, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Bill Progress <alerts@bills.example.com>', PUBLIC_URL } });
  ({ api, server, env } = live);
  alice = await verifiedReader('alice@example.com');
  bob = await verifiedReader('bob@example.com');
}, 180_000);
afterAll(async () => {
  await live?.close();
  await smtp?.close();
});

it('mails a stage that appears in the Bills API to each verified reader within a sync interval and seconds: once, with the bill, its page and the unsubscribe headers', async () => {
  recordLordsReport(api, BILL, TODAY, `${TODAY}T09:00:00.1234567`);
  const [forAlice, forBob] = await Promise.all([mailTo(alice.email, /: report \(Lords\) on /), mailTo(bob.email, /: report \(Lords\) on /)]);
  expect(forAlice.parsed.subject).toBe(`${TITLE}: report (Lords) on ${TODAY}`);
  expect(forAlice.parsed.text).toContain(`${PUBLIC_URL}/#/bills/${BILL}`);
  expect(forAlice.parsed.html).toContain(`href="${PUBLIC_URL}/#/bills/${BILL}"`);
  expect(forAlice.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  // one event, each reader mailed it in a message of their own
  expect(eventIdOf(forAlice)).toMatch(/^evt_/);
  expect(eventIdOf(forBob)).toBe(eventIdOf(forAlice));
  expect(forBob.parsed.messageId).not.toBe(forAlice.parsed.messageId);
  await settle();
  expect(smtp.received.filter((m) => eventIdOf(m) === eventIdOf(forAlice))).toHaveLength(2);
}, 30_000);

it('puts a third reading the Bills API sets down for a later day in the watchlist’s calendar, as an all-day event on that day', async () => {
  setDownLordsThirdReading(api, BILL, '2026-10-21', `${TODAY}T10:00:00.1234567`);
  await mailTo(alice.email, /set down for 2026-10-21/);
  // a calendar app's request: the secret address alone, no key
  const res = await fetch(on(alice.calendarUrl));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
  const calendar = new ICAL.Component(ICAL.parse(await res.text()));
  const onTheDay = calendar
    .getAllSubcomponents('vevent')
    .filter((v) => (v.getFirstPropertyValue('dtstart') as unknown as ICAL.Time).toString() === '2026-10-21')
    .map((v) => ({ allDay: (v.getFirstPropertyValue('dtstart') as unknown as ICAL.Time).isDate, status: v.getFirstPropertyValue('status'), summary: v.getFirstPropertyValue('summary') as string }));
  // the sitting, and the predicted next stage (its ETA is the date set down), tentative
  expect(onTheDay).toEqual([
    { allDay: true, status: 'CONFIRMED', summary: `Third reading (Lords): ${TITLE}` },
    { allDay: true, status: 'TENTATIVE', summary: expect.stringMatching(new RegExp(`^Predicted next stage: ${TITLE} \\(\\d+% within 30 days\\)$`)) },
  ]);
}, 30_000);

it('loses nothing and sends nothing twice when the server is killed (SIGKILL) with the event’s mail in the outbox', async () => {
  const subject = /set down for 2026-10-28/;
  // embedded: the SMTP server reads each message and never answers, so the attempts are under way
  // when the server dies and the restart hands their claims back at once. PostgreSQL: another
  // instance could hold such claims, which lapse only after MAIL_CLAIM_MS (covered with a moved
  // clock in tests/integration/mail-outbox.test.ts); here the SMTP server answers 451 after DATA
  // at first, so the server dies with the mail pending in the outbox, its retry due in seconds.
  const underWay = !usingPostgres();
  if (underWay) smtp.holdData = true;
  else smtp.afterData = 451;
  setDownLordsThirdReading(api, BILL, '2026-10-28', `${TODAY}T11:00:00.1234567`);
  const held = await eventually(async () => {
    const read = smtp.held.filter((m) => subject.test(m.parsed.subject ?? ''));
    // the failed attempts' outcomes are written before they are logged
    const recorded = underWay || server.logs.filter((l) => l.msg === 'mail: attempt failed, retried later').length >= 2;
    return read.length === 2 && recorded ? read : undefined;
  }, INTERVAL_SECONDS * 1000 + SLACK_MS);
  server.child.kill('SIGKILL');
  expect(await server.exited).toBe(137);
  smtp.holdData = false;
  smtp.afterData = null;
  const accepted = smtp.received.length;

  server = live.server = await startServerProcess(env);
  // a restart takes seconds, more on a busy machine
  const sent = await Promise.all([alice, bob].map((reader) => mailTo(reader.email, subject, 30_000, accepted)));
  expect(eventIdOf(sent[1])).toBe(eventIdOf(sent[0]));
  // the bytes sent are the ones composed with the event: the attempt that was not accepted carried the same Message-ID
  expect(sent.map((m) => m.parsed.messageId)).toEqual([alice, bob].map((r) => held.find(to(r.email))!.parsed.messageId));
  // settle past a sync of the restarted server: the event is not made, nor mailed, again
  await waitUntilReady(server.url, 60_000);
  await settle(INTERVAL_SECONDS * 1000 + 1_500);
  expect(smtp.received.slice(accepted).map((m) => [m.envelopeTo[0], eventIdOf(m)]).sort()).toEqual([alice, bob].map((r) => [r.email, eventIdOf(sent[0])]).sort());
}, 90_000);

it('suppresses an address the SMTP server refuses with 550: SUPPRESSED on GET /api/v1/account, and never tried again', async () => {
  smtp.refuseRecipient.set(bob.email, 550);
  const tried = () => smtp.rcptAttempts.filter((address) => address === bob.email).length;
  const before = tried();
  setDownLordsThirdReading(api, BILL, '2026-11-04', `${TODAY}T12:00:00.1234567`);
  await mailTo(alice.email, /set down for 2026-11-04/);
  const status = await eventually(async () => {
    const { body } = await rest('GET', '/account', bob.key);
    return body.email_status === 'SUPPRESSED' ? body.email_status : undefined;
  });
  expect(status).toBe('SUPPRESSED');
  expect(tried()).toBe(before + 1);

  // the next event reaches alice; bob's address is not even tried
  setDownLordsThirdReading(api, BILL, '2026-11-11', `${TODAY}T13:00:00.1234567`);
  await mailTo(alice.email, /set down for 2026-11-11/);
  await settle();
  expect(tried()).toBe(before + 1);
  expect(smtp.received.filter((m) => to(bob.email)(m) && /2026-11-(04|11)/.test(m.parsed.subject ?? ''))).toEqual([]);
}, 60_000);

it('mails a suppressed address again once a new verification link is opened', async () => {
  smtp.refuseRecipient.delete(bob.email);
  await verify(bob.email, bob.key);
  setDownLordsThirdReading(api, BILL, '2026-11-18', `${TODAY}T14:00:00.1234567`);
  await Promise.all([mailTo(alice.email, /set down for 2026-11-18/), mailTo(bob.email, /set down for 2026-11-18/)]);
}, 60_000);

it('stops a watchlist’s emails with the one-click unsubscribe (RFC 8058: a POST to the List-Unsubscribe link, no log-in), while its Atom feed still shows the events', async () => {
  const alert = await mailTo(alice.email, /: report \(Lords\) on /);
  const link = /^List-Unsubscribe: <(https:[^>]+)>/m.exec(alert.raw.replace(/\r?\n[ \t]+/g, ' '))![1];
  const post = await fetch(on(link), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
  expect(post.status).toBe(200);
  expect((await rest('GET', `/dashboard/watchlists/${alice.watchlistId}/notifications`, alice.key)).body.email).toBe('off');

  setDownLordsThirdReading(api, BILL, '2026-11-25', `${TODAY}T15:00:00.1234567`);
  // the event happened: bob's watchlist mails it, and alice's Atom feed (its secret address, no key)
  // lists it (beside the predictions' events of the same refresh, which share its time)
  await mailTo(bob.email, /set down for 2026-11-25/);
  const entries = await eventually(async () => {
    const feed = new XMLParser({ ignoreAttributes: false }).parse(await (await fetch(on(alice.feedUrl))).text()) as { feed: { entry?: unknown } };
    const list = ([] as { id: string; title: string | { '#text': string } }[]).concat((feed.feed.entry as never) ?? []);
    const title = (e: (typeof list)[number]) => (typeof e.title === 'string' ? e.title : e.title['#text']);
    return list.some((e) => title(e).includes('2026-11-25')) ? list : undefined;
  }, INTERVAL_SECONDS * 1000 + SLACK_MS);
  // each event once, by its id
  expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  expect(entries.every((e) => e.id.startsWith('urn:bill-progress:event:evt_'))).toBe(true);
  await settle();
  expect(smtp.received.filter((m) => to(alice.email)(m) && /2026-11-25/.test(m.parsed.subject ?? ''))).toEqual([]);
}, 60_000);

/** The first whole minute at least `leadMs` from now, and its London wall-clock time (HH:MM), as a digest's time is set. */
function nextLondonMinute(leadMs: number): { at: number; time: string } {
  const at = Math.ceil((Date.now() + leadMs) / 60_000) * 60_000;
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return { at, time };
}

it('sends a daily digest at its London time, by the server’s own clock, with what changed since it was set; none to a reader whose bills did not change', async () => {
  const [carol, dave] = await Promise.all([
    verifiedReader('carol@example.com', { notifications: { email: 'off' } }),
    // the Domestic Abuse Act 2021: enacted, so neither its stages nor its forecast move
    verifiedReader('dave@example.com', { billIds: [2709], notifications: { email: 'off' } }),
  ]);
  // set once the readers exist, with time enough before the digest's minute for the change to be synced and recorded
  const slot = nextLondonMinute(30_000);
  for (const reader of [carol, dave]) expect((await rest('PATCH', `/dashboard/watchlists/${reader.watchlistId}/notifications`, reader.key, { email: 'daily', time: slot.time })).body).toMatchObject({ email: 'daily', time: slot.time });
  setDownLordsThirdReading(api, BILL, '2026-12-02', `${TODAY}T16:00:00.1234567`);
  await mailTo(bob.email, /set down for 2026-12-02/);
  expect(smtp.received.filter(to(carol.email)).map((m) => m.parsed.subject)).toEqual(['Confirm your email address for Bill Progress']);

  // the digest job looks once a minute: the digest goes within two minutes of its time
  const digest = await mailTo(carol.email, /^Daily digest: /, slot.at - Date.now() + 120_000);
  expect(digest.receivedAt).toBeGreaterThanOrEqual(slot.at);
  expect(digest.receivedAt - slot.at).toBeLessThanOrEqual(120_000);
  expect(digest.parsed.subject).toMatch(/^Daily digest: \d+ changes? to 1 bill$/);
  expect(digest.parsed.text).toContain(TITLE);
  expect(digest.parsed.text).toContain('2026-12-02');
  expect(digest.parsed.text).toContain(`${PUBLIC_URL}/#/bills/${BILL}`);
  expect(digest.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  // dave's slot is the same minute: its look has been, and found nothing to say
  await settle();
  expect(smtp.received.filter((m) => to(dave.email)(m) && /digest/i.test(m.parsed.subject ?? ''))).toEqual([]);
}, 240_000);
