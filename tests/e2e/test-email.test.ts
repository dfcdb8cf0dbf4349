import * as WEB from '../../web/src/operations';
import { dashboardGql, dashboardUser, markVerified } from '../support/dashboard-session';
import { eventually } from '../support/eventually';
import { appWithSmtpServer, type SmtpTestApp } from '../support/smtp-app';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * "Send me a test email" (issue 33): GraphQL `sendTestEmail` (the dashboard's document, with its
 * cookie) and REST `POST /api/v1/account/test-email`, through the mail outbox: only to a VERIFIED
 * address (a clear refusal otherwise), at most 5 an hour, into the local mailbox without SMTP_URL
 * and to a real SMTP server with it.
 */
const START = new Date('2026-11-22T12:00:00Z');
let people = 0;
const nextEmail = () => `tester${++people}@example.com`;

describe('without SMTP_URL: into the local mailbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ deliverMail: true });
  });
  afterAll(() => t.close());
  beforeEach(() => t.setNow(START));

  const testMails = async (cookie: string) =>
    ((await dashboardGql(t, WEB.OUTBOX, {}, { cookie })).body.data.me.outbox as { subject: string; to: string; text: string; eventId: string }[]).filter((m) => m.subject === 'Bill Progress test email');

  it('refuses an unverified address on both doors, saying what to do, and sends nothing', async () => {
    const { cookie, key, email } = await dashboardUser(t, nextEmail());
    const gql = await dashboardGql(t, WEB.SEND_TEST_EMAIL, {}, { cookie });
    expect(gql.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^The address .+ is not verified yet: open the link in the verification email/), extensions: { code: 'BAD_USER_INPUT' } });
    const rest = await t.http().post('/api/v1/account/test-email').set('authorization', `Bearer ${key}`);
    expect(rest.status).toBe(400);
    expect(rest.body.detail).toBe(`The address ${email} is not verified yet: open the link in the verification email (or ask for a new one), then send a test email`);
    await t.db.dataSource.query(`UPDATE account SET email_status = 'SUPPRESSED' WHERE email = $1`, [email]);
    const suppressed = await t.http().post('/api/v1/account/test-email').set('authorization', `Bearer ${key}`);
    expect(suppressed.status).toBe(400);
    expect(suppressed.body.detail).toMatch(/refused .+ for good/);
    expect(Number((await t.db.dataSource.query(`SELECT count(*)::int AS n FROM mail_message WHERE kind = 'test'`))[0].n)).toBe(0);
  });

  it('queues one email to a verified address through the outbox, which the Outbox lists', async () => {
    const { cookie, email } = await dashboardUser(t, nextEmail());
    await markVerified(t, email);
    const res = await dashboardGql(t, WEB.SEND_TEST_EMAIL, {}, { cookie });
    expect(res.body).toEqual({ data: { sendTestEmail: { to: email, eventId: expect.stringMatching(/^mail_[0-9a-f]{24}$/) } } });
    const [mail] = await eventually(async () => ((await testMails(cookie)).length ? testMails(cookie) : undefined));
    expect(mail).toMatchObject({ to: email, eventId: res.body.data.sendTestEmail.eventId });
    expect(mail.text).toContain('If it arrived, alerts and digests will reach this address.');
  });

  it('allows 5 an hour per account on REST, then 429 with Retry-After; a Free account has none', async () => {
    const { key, email } = await dashboardUser(t, nextEmail());
    await markVerified(t, email);
    for (let i = 0; i < 5; i++) {
      const sent = await t.http().post('/api/v1/account/test-email').set('authorization', `Bearer ${key}`);
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ sent: true, to: email, event_id: expect.stringMatching(/^mail_/) });
    }
    const refused = await t.http().post('/api/v1/account/test-email').set('authorization', `Bearer ${key}`);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Too many test emails: the limit is 5 an hour; try again in \d+ minute\(s\)$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // an hour later the window has moved on
    t.setNow(new Date(START.getTime() + 3600_000 + 1000));
    expect((await t.http().post('/api/v1/account/test-email').set('authorization', `Bearer ${key}`)).status).toBe(200);

    const free = await dashboardUser(t, nextEmail(), 'free');
    await markVerified(t, free.email);
    expect((await dashboardGql(t, WEB.SEND_TEST_EMAIL, {}, { cookie: free.cookie })).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('with SMTP_URL: a real SMTP server', () => {
  let t: SmtpTestApp;
  beforeAll(async () => {
    t = await appWithSmtpServer();
  });
  afterAll(() => t.close());

  it('sends a text and an HTML part with the outbox’s headers', async () => {
    const { cookie, email } = await dashboardUser(t, nextEmail());
    const signUpMails = (await t.smtp.waitFor(1)).length;
    await markVerified(t, email);
    const { eventId } = (await dashboardGql(t, WEB.SEND_TEST_EMAIL, {}, { cookie })).body.data.sendTestEmail;
    const mail = (await t.smtp.waitFor(signUpMails + 1)).find((m) => m.parsed.subject === 'Bill Progress test email')!;
    expect(mail.envelopeTo).toEqual([email]);
    expect(mail.parsed.headers.get('x-bill-progress-event-id')).toBe(eventId);
    expect(mail.parsed.messageId).toMatch(/^<[0-9a-f]{32}@bills\.test>$/);
    expect(mail.parsed.text).toContain('https://bills.example.com/#/watchlists');
    expect(mail.parsed.html).toContain('<a href="https://bills.example.com/#/watchlists">');
  });
});
