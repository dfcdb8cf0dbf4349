import * as WEB from '../../web/src/operations';
import { eventually } from '../support/eventually';
import { appWithSmtpServer, type SmtpTestApp } from '../support/smtp-app';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Verified addresses over HTTP (issue 33): sign-up mails a verification link, whose GET page
 * verifies without a log-in, once, for 24 hours (410 after); the status through REST and
 * GraphQL; resending, rate-limited; a change of address; the local mailbox without SMTP_URL, and
 * a real SMTP server with it.
 */
const ORIGIN = 'http://dashboard.test';
const PASSWORD = 'correct horse battery';
const START = new Date('2026-11-22T12:00:00Z');

function gql(t: TestApp, query: string, variables: Record<string, unknown> = {}, { cookie }: { cookie?: string } = {}) {
  const req = t.http().post('/graphql').set('host', 'dashboard.test').set('origin', ORIGIN).set('content-type', 'application/json');
  if (cookie) req.set('cookie', cookie);
  return req.send({ query, variables });
}

let people = 0;
/** Signs up through the dashboard's mutation, logs in; a Pilot key too (the REST door's credential). */
async function signUp(t: TestApp) {
  const email = `reader${++people}@example.com`;
  expect((await gql(t, WEB.SIGN_UP, { input: { email, password: PASSWORD } })).body).toEqual({ data: { signUp: true } });
  const logIn = await gql(t, WEB.LOG_IN, { input: { email, password: PASSWORD } });
  const cookie = ((logIn.headers['set-cookie'] as unknown as string[]) ?? []).find((c) => c.startsWith('bp_session='))!.split(';')[0];
  await t.services.accounts.setTier(email, 'pilot');
  const key = (await t.services.apiKeys.create(email)).api_key;
  return { email, cookie, key };
}

describe('without SMTP_URL: the local mailbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ deliverMail: true, publicUrl: 'https://bills.example.com' });
  });
  afterAll(() => t.close());
  beforeEach(() => t.setNow(START));

  const outbox = async (key: string) => {
    const res = await t.http().get('/api/v1/account/outbox').set('authorization', `Bearer ${key}`);
    expect(res.status).toBe(200);
    return res.body.messages as { id: number; to: string; subject: string; text: string; message_id: string; event_id: string; delivered_at: string }[];
  };
  const linkIn = (text: string) => /https:\/\/bills\.example\.com(\/account\/verify-email\/[A-Za-z0-9_-]{43})/.exec(text)![1];
  const status = async (key: string) => (await t.http().get('/api/v1/account').set('authorization', `Bearer ${key}`)).body;

  it('mails a link on sign-up that verifies without a log-in, once (410 after), and shows the status through REST and GraphQL', async () => {
    const { email, key, cookie } = await signUp(t);
    expect(await status(key)).toEqual({ id: expect.any(Number), email, tier: 'pilot', email_status: 'UNVERIFIED' });
    const [mail] = await eventually(async () => ((await outbox(key)).length ? outbox(key) : undefined));
    expect(mail).toMatchObject({ to: email, subject: 'Confirm your email address for Bill Progress', event_id: expect.stringMatching(/^mail_[0-9a-f]{24}$/), message_id: expect.stringMatching(/^<[0-9a-f]{32}@bills\.test>$/) });
    const path = linkIn(mail.text);
    const token = path.split('/').pop()!;
    // only the token's SHA-256 is stored, and neither it nor the path reaches the log
    const stored = JSON.stringify(await t.db.dataSource.query('SELECT * FROM email_verification'));
    expect(stored).not.toContain(token);
    const page = await t.http().get(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain(`${email} is verified`);
    expect(await status(key)).toMatchObject({ email_status: 'VERIFIED' });
    const me = await t.graphql('{ me { emailStatus outbox { subject eventId } } }', { key });
    expect(me.body.data.me).toEqual({ emailStatus: 'VERIFIED', outbox: [{ subject: mail.subject, eventId: mail.event_id }] });
    expect((await gql(t, WEB.EMAIL_STATUS, {}, { cookie })).body.data.me).toEqual({ email, emailStatus: 'VERIFIED' });
    const again = await t.http().get(path);
    expect(again.status).toBe(410);
    expect(again.text).toContain('used already');
    expect(t.logLines.join('')).not.toContain(token);
    // verified: no new link is sent
    const resend = await t.http().post('/api/v1/account/verification-email').set('authorization', `Bearer ${key}`);
    expect(resend.status).toBe(400);
    expect(resend.body.detail).toBe('The address is verified already');
  });

  it('answers 410 for a link past its 24 hours, 404 for one it never sent; resends, at most 3 an hour', async () => {
    const { key } = await signUp(t);
    const [first] = await eventually(async () => ((await outbox(key)).length ? outbox(key) : undefined));
    t.setNow(new Date(START.getTime() + 24 * 3600_000 + 1_000));
    const expired = await t.http().get(linkIn(first.text));
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('expired');
    expect((await t.http().get('/account/verify-email/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await t.http().get('/account/verify-email/not-a-token')).status).toBe(404);

    for (let i = 0; i < 3; i++) expect((await t.http().post('/api/v1/account/verification-email').set('authorization', `Bearer ${key}`)).status).toBe(200);
    const limited = await t.http().post('/api/v1/account/verification-email').set('authorization', `Bearer ${key}`);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const mails = await eventually(async () => ((await outbox(key)).length === 4 ? outbox(key) : undefined));
    // the newest link works
    expect((await t.http().get(linkIn(mails[0].text))).status).toBe(200);
    expect(await status(key)).toMatchObject({ email_status: 'VERIFIED' });
  });

  it('changes the address once the password is confirmed: UNVERIFIED, with a link to the new address; the old links no longer verify', async () => {
    const { key, cookie } = await signUp(t);
    const [first] = await eventually(async () => ((await outbox(key)).length ? outbox(key) : undefined));
    const wrong = await gql(t, WEB.CHANGE_EMAIL, { email: 'new-home@example.com', c: 'not the password' }, { cookie });
    expect(wrong.body.errors[0].message).toBe('The current password is wrong');
    // an address another account has (made by the operator: the test stays under the sign-up limit)
    const other = await t.services.accounts.create('taken@example.com', 'pilot');
    const taken = await gql(t, WEB.CHANGE_EMAIL, { email: other.email, c: PASSWORD }, { cookie });
    expect(taken.body).toMatchObject({ errors: [{ message: 'That address cannot be used for this account' }] });
    const changed = await gql(t, WEB.CHANGE_EMAIL, { email: 'New-Home@example.com', c: PASSWORD }, { cookie });
    expect(changed.body).toEqual({ data: { changeEmail: { email: 'new-home@example.com' } } });
    const mails = await eventually(async () => ((await outbox(key)).length === 2 ? outbox(key) : undefined));
    expect(mails[0].to).toBe('new-home@example.com');
    expect((await t.http().get(linkIn(first.text))).status).toBe(410);
    expect(await status(key)).toMatchObject({ email: 'new-home@example.com', email_status: 'UNVERIFIED' });
    expect((await t.http().get(linkIn(mails[0].text))).status).toBe(200);
    expect(await status(key)).toMatchObject({ email_status: 'VERIFIED' });
  });

  it('keeps each account’s mailbox its own', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await eventually(async () => ((await outbox(b.key)).length ? true : undefined));
    expect((await outbox(a.key)).every((m) => m.to === a.email)).toBe(true);
    expect((await outbox(b.key)).every((m) => m.to === b.email)).toBe(true);
  });
});

describe('with SMTP_URL: a real SMTP server', () => {
  let t: SmtpTestApp;
  beforeAll(async () => {
    t = await appWithSmtpServer();
  });
  afterAll(() => t.close());

  it('sends the verification mail over SMTP with its headers; its link verifies', async () => {
    const { email, key } = await signUp(t);
    const [mail] = await t.smtp.waitFor(1);
    expect(mail.envelopeTo).toEqual([email]);
    expect(mail.parsed.headers.get('x-bill-progress-event-id')).toMatch(/^mail_[0-9a-f]{24}$/);
    expect(mail.parsed.messageId).toMatch(/^<[0-9a-f]{32}@bills\.test>$/);
    const path = /https:\/\/bills\.example\.com(\/account\/verify-email\/[A-Za-z0-9_-]{43})/.exec(mail.parsed.text!)![1];
    expect((await t.http().get(path)).status).toBe(200);
    expect((await t.http().get('/api/v1/account').set('authorization', `Bearer ${key}`)).body.email_status).toBe('VERIFIED');
    // over SMTP the local mailbox stays empty
    expect((await t.http().get('/api/v1/account/outbox').set('authorization', `Bearer ${key}`)).body).toEqual({ messages: [] });
  });
});
