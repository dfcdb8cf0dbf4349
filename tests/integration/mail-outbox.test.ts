import type { DataSource } from 'typeorm';
import { Writable } from 'node:stream';
import { simpleParser } from 'mailparser';
import { createLogger } from '../../src/logger';
import { enqueueMail, type OutgoingMail } from '../../src/events/mail/outbox';
import { smtpTransport } from '../../src/events/mail/transport';
import { MAIL_CLAIM_MS, MailWorker } from '../../src/events/mail/worker';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import { openTestDatabase, type TestDatabase, usingPostgres } from '../support/test-database';

// The mail outbox's worker against a real SMTP server (smtp-server, parsed with mailparser):
// delivery, retries after a 421 and a refused connection, 550 suppressing the address, a stable
// Message-ID, and a claim left by a dead process picked up again without a duplicate.

const FROM = 'Bill Progress <alerts@bills.test>';
const logLines: string[] = [];
const logger = createLogger('info', new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }) as never);

let db: TestDatabase;
let smtp: TestSmtpServer;
let now = new Date('2026-11-22T12:00:00Z');
const clock = () => now;
const later = (ms: number) => (now = new Date(now.getTime() + ms));

beforeAll(async () => {
  db = await openTestDatabase();
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await db.close();
});

let n = 0;
async function account(status: 'VERIFIED' | 'UNVERIFIED' = 'VERIFIED'): Promise<{ id: number; email: string }> {
  const email = `reader${++n}@example.com`;
  const [row] = (await db.dataSource.query(`INSERT INTO account (email, tier, email_status) VALUES ($1, 'pilot', $2) RETURNING id`, [email, status])) as { id: number }[];
  return { id: row.id, email };
}
const alert = (a: { id: number; email: string }, eventId: string): OutgoingMail => ({
  accountId: a.id,
  to: a.email,
  kind: 'alert',
  eventId,
  content: { subject: `Stage changed (${eventId})`, text: 'Second reading, Commons', html: '<p>Second reading, Commons</p>' },
});
const enqueue = (dataSource: DataSource, mails: OutgoingMail[]) => dataSource.transaction((manager) => enqueueMail(manager, FROM, mails, clock()));
const rowOf = async (eventId: string) =>
  ((await db.dataSource.query(`SELECT status, attempt, message_id, last_error, claimed_at FROM mail_message WHERE event_id = $1`, [eventId])) as { status: string; attempt: number; message_id: string; last_error: string | null; claimed_at: Date | null }[])[0];
const worker = (url = smtp.url) => new MailWorker(db.dataSource, { transport: smtpTransport(url, { timeoutMs: 3_000 }), from: FROM, embedded: !usingPostgres(), logger, now: clock, random: () => 0.5 });
const forEvent = (eventId: string) => smtp.received.filter((m) => m.parsed.headers.get('x-bill-progress-event-id') === eventId);

it('sends a message composed when its row was written: text and HTML, its Message-ID and event id', async () => {
  const a = await account();
  await enqueue(db.dataSource, [alert(a, 'evt_sent')]);
  const w = worker();
  await w.runDue();
  await w.stop();
  const [mail] = forEvent('evt_sent');
  expect(mail.envelopeTo).toEqual([a.email]);
  expect(mail.parsed.subject).toBe('Stage changed (evt_sent)');
  expect(mail.parsed.text).toContain('Second reading, Commons');
  expect(mail.parsed.html).toContain('<p>Second reading, Commons</p>');
  expect(mail.parsed.from?.text).toContain('alerts@bills.test');
  const row = await rowOf('evt_sent');
  expect(row).toMatchObject({ status: 'sent', attempt: 1, claimed_at: null });
  expect(mail.parsed.messageId).toBe(row.message_id);
  expect(row.message_id).toMatch(/^<[0-9a-f]{32}@bills\.test>$/);
});

it('writes an account’s event once, and nothing when the transaction rolls back', async () => {
  const a = await account();
  expect(await enqueue(db.dataSource, [alert(a, 'evt_once')])).toBe(1);
  expect(await enqueue(db.dataSource, [alert(a, 'evt_once')])).toBe(0);
  await expect(
    db.dataSource.transaction(async (manager) => {
      await enqueueMail(manager, FROM, [alert(a, 'evt_rolled_back')], clock());
      throw new Error('refresh failed');
    }),
  ).rejects.toThrow('refresh failed');
  expect(await rowOf('evt_rolled_back')).toBeUndefined();
  const w = worker();
  await w.runDue();
  await w.stop();
  expect(forEvent('evt_once')).toHaveLength(1);
});

it('writes an event to many accounts in one call (several statements), each once, with the bytes as composed', async () => {
  const readers = await Promise.all(Array.from({ length: 230 }, () => account()));
  // quotes, a backslash, non-ASCII and line breaks survive the JSON the rows travel in
  const tricky = { subject: 'Bill “Ó Súilleabháin” \\ test', text: 'line one\r\nline "two"\n\ttab', html: '<p>café</p>' };
  const mails = readers.map((r) => ({ ...alert(r, 'evt_many'), content: tricky }));
  expect(await enqueue(db.dataSource, [...mails, mails[0]])).toBe(230);
  expect(await enqueue(db.dataSource, mails.slice(0, 5))).toBe(0);
  const rows = (await db.dataSource.query(`SELECT to_address, subject, text_body, raw, message_id FROM mail_message WHERE event_id = 'evt_many' ORDER BY id`)) as { to_address: string; subject: string; text_body: string; raw: string; message_id: string }[];
  expect(rows.map((r) => r.to_address)).toEqual(readers.map((r) => r.email));
  expect(new Set(rows.map((r) => r.message_id)).size).toBe(230);
  expect(rows[0]).toMatchObject({ subject: tricky.subject, text_body: tricky.text });
  const parsed = await simpleParser(rows[229].raw);
  expect([parsed.subject, parsed.messageId, parsed.text?.trim()]).toEqual([tricky.subject, rows[229].message_id, 'line one\nline "two"\n\ttab']);
});

it('writes a subject cut inside an emoji (a lone surrogate, which jsonb refuses) with U+FFFD in its place, as a text parameter would', async () => {
  const reader = await account();
  const cut = 'Bill 🎉'.slice(0, 6);
  expect(await enqueue(db.dataSource, [{ ...alert(reader, 'evt_cut'), content: { subject: cut, text: `about ${cut}`, html: '<p>x</p>' } }])).toBe(1);
  const [row] = (await db.dataSource.query(`SELECT subject, text_body FROM mail_message WHERE event_id = 'evt_cut'`)) as { subject: string; text_body: string }[];
  expect(row).toEqual({ subject: 'Bill \uFFFD', text_body: 'about Bill \uFFFD' });
});

it('retries after a 421 at the greeting and after a refused connection, on the retry schedule, with the same Message-ID', async () => {
  const a = await account();
  await enqueue(db.dataSource, [alert(a, 'evt_retry')]);
  smtp.refuseConnections = 421;
  const w = worker();
  await w.runDue();
  let row = await rowOf('evt_retry');
  expect(row).toMatchObject({ status: 'pending', attempt: 1, claimed_at: null });
  expect(row.last_error).toMatch(/421/);
  // not due before its first wait (5 s) is over
  later(1_000);
  await w.runDue();
  expect((await rowOf('evt_retry')).attempt).toBe(1);
  await w.stop();

  // a server that is not there at all: a connection failure, retried too
  smtp.refuseConnections = null;
  later(10_000);
  const nobody = worker('smtp://127.0.0.1:9');
  await nobody.runDue();
  await nobody.stop();
  row = await rowOf('evt_retry');
  expect(row).toMatchObject({ status: 'pending', attempt: 2 });
  expect(row.last_error).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);

  later(60_000);
  const again = worker();
  await again.runDue();
  await again.stop();
  expect(await rowOf('evt_retry')).toMatchObject({ status: 'sent', attempt: 3 });
  const [mail] = forEvent('evt_retry');
  expect(forEvent('evt_retry')).toHaveLength(1);
  expect(mail.parsed.messageId).toBe(row.message_id);
});

it('retries a 4xx after DATA, and suppresses the address after a 5xx after DATA', async () => {
  const a = await account();
  await enqueue(db.dataSource, [alert(a, 'evt_451')]);
  smtp.afterData = 451;
  const w = worker();
  await w.runDue();
  expect(await rowOf('evt_451')).toMatchObject({ status: 'pending', attempt: 1 });
  smtp.afterData = 554;
  later(10_000);
  await w.runDue();
  await w.stop();
  smtp.afterData = null;
  expect(await rowOf('evt_451')).toMatchObject({ status: 'suppressed', attempt: 2 });
  const [status] = (await db.dataSource.query(`SELECT email_status FROM account WHERE id = $1`, [a.id])) as { email_status: string }[];
  expect(status.email_status).toBe('SUPPRESSED');
});

it('suppresses an address refused with 550 at RCPT: no further attempt for it, the account SUPPRESSED', async () => {
  const a = await account();
  smtp.refuseRecipient.set(a.email, 550);
  await enqueue(db.dataSource, [alert(a, 'evt_550')]);
  const w = worker();
  await w.runDue();
  expect(await rowOf('evt_550')).toMatchObject({ status: 'suppressed', attempt: 1 });
  expect((await rowOf('evt_550')).last_error).toMatch(/550 at RCPT TO/);
  const [status] = (await db.dataSource.query(`SELECT email_status FROM account WHERE id = $1`, [a.id])) as { email_status: string }[];
  expect(status.email_status).toBe('SUPPRESSED');
  // a later event is written but never attempted while the address is suppressed
  await enqueue(db.dataSource, [alert(a, 'evt_after_550')]);
  smtp.refuseRecipient.delete(a.email);
  later(3_600_000);
  await w.runDue();
  await w.stop();
  expect(await rowOf('evt_after_550')).toMatchObject({ status: 'suppressed', attempt: 1 });
  expect(forEvent('evt_after_550')).toHaveLength(0);
});

it('mails nothing but the verification mail to an unverified address', async () => {
  const a = await account('UNVERIFIED');
  await enqueue(db.dataSource, [alert(a, 'evt_unverified'), { accountId: a.id, to: a.email, kind: 'verification', eventId: 'mail_verify_1', content: { subject: 'Confirm', text: 'link' } }]);
  const w = worker();
  await w.runDue();
  await w.stop();
  expect(await rowOf('evt_unverified')).toMatchObject({ status: 'suppressed' });
  expect(await rowOf('mail_verify_1')).toMatchObject({ status: 'sent' });
  expect(forEvent('evt_unverified')).toHaveLength(0);
  expect(forEvent('mail_verify_1')).toHaveLength(1);
});

it('sends a row claimed by a process that died before sending it, once, after a restart', async () => {
  const a = await account();
  await enqueue(db.dataSource, [alert(a, 'evt_crash')]);
  // what a killed process leaves: the row claimed (an attempt counted, due when the claim lapses), nothing sent
  await db.dataSource.query(`UPDATE mail_message SET attempt = 1, claimed_at = $2, next_attempt_at = $3 WHERE event_id = $1`, ['evt_crash', clock(), new Date(now.getTime() + MAIL_CLAIM_MS)]);
  const w = worker();
  // embedded: the new process hands back the dead one's claims at start; PostgreSQL: the claim lapses
  await w.start();
  if (usingPostgres()) later(MAIL_CLAIM_MS + 1_000);
  await w.runDue();
  await w.stop();
  expect(forEvent('evt_crash')).toHaveLength(1);
  expect((await rowOf('evt_crash')).status).toBe('sent');
  // a later pass sends nothing again
  later(3_600_000);
  const next = worker();
  await next.runDue();
  await next.stop();
  expect(forEvent('evt_crash')).toHaveLength(1);
});

it('never claims one row twice from two workers at once', async () => {
  const a = await account();
  await enqueue(db.dataSource, Array.from({ length: 20 }, (_, i) => alert(a, `evt_pair_${i}`)));
  const one = worker();
  const two = worker();
  await Promise.all([one.runDue(), two.runDue()]);
  await Promise.all([one.stop(), two.stop()]);
  for (let i = 0; i < 20; i++) expect(forEvent(`evt_pair_${i}`)).toHaveLength(1);
});

it('never logs the SMTP credentials', async () => {
  const w = new MailWorker(db.dataSource, { transport: smtpTransport('smtp://mailer:s3cret-pass@127.0.0.1:9', { timeoutMs: 2_000 }), from: FROM, embedded: !usingPostgres(), logger, now: clock });
  const a = await account();
  await enqueue(db.dataSource, [alert(a, 'evt_creds')]);
  await w.runDue();
  await w.stop();
  expect(logLines.join('')).not.toContain('s3cret-pass');
});

it('is pruned by the retention job: finished rows past RETENTION_DAYS, the local mailbox past each account’s newest 100, links a day past their expiry, digests past RETENTION_DAYS but each slot’s and each watchlist’s newest', async () => {
  const { mailRetentionRules } = await import('../../src/jobs/mail-retention-rules');
  const a = await account();
  await enqueue(db.dataSource, [alert(a, 'evt_old_sent'), alert(a, 'evt_old_pending')]);
  await db.dataSource.query(`UPDATE mail_message SET status = 'sent', created_at = $2 WHERE event_id = $1`, ['evt_old_sent', new Date(now.getTime() - 91 * 86_400_000)]);
  await db.dataSource.query(`UPDATE mail_message SET created_at = $2 WHERE event_id = $1`, ['evt_old_pending', new Date(now.getTime() - 91 * 86_400_000)]);
  for (let i = 0; i < 103; i++) {
    await db.dataSource.query(`INSERT INTO local_mailbox (account_id, mail_message_id, to_address, message_id, event_id, subject, text_body) VALUES ($1, $2, $3, 'm', 'e', 's', 't')`, [a.id, 1_000_000 + i, a.email]);
  }
  await db.dataSource.query(`INSERT INTO email_verification (account_id, token_hash, email, expires_at) VALUES ($1, '\\x01', $2, $3), ($1, '\\x02', $2, $4)`, [a.id, a.email, new Date(now.getTime() - 2 * 86_400_000), new Date(now.getTime() - 3_600_000)]);
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  await db.dataSource.query(`INSERT INTO mail_digest (account_id, slot, slot_at, covered_until) VALUES ($1, 'daily 08:00', $2, $2), ($1, 'daily 08:00', $3, $3), ($1, 'weekly friday 08:00', $2, $2)`, [a.id, daysAgo(120), daysAgo(100)]);
  // `moved` left 09:00 after its last digest there, which stays: its next digest starts there;
  // `off` has no digests any more, and `still` had later ones: theirs go
  const [moved, still, off] = (await db.dataSource.query(`INSERT INTO watchlist (account_id, name) VALUES ($1, 'moved'), ($1, 'still'), ($1, 'off') RETURNING id`, [a.id])) as { id: number }[];
  await db.dataSource.query(`INSERT INTO watchlist_notification (watchlist_id, email, time, day, events, digests_since) VALUES ($1, 'weekly', '09:00', 'friday', '{}', $4), ($2, 'daily', '09:00', 'monday', '{}', $4), ($3, 'off', '09:00', 'monday', '{}', NULL)`, [moved.id, still.id, off.id, daysAgo(200)]);
  await db.dataSource.query(`INSERT INTO mail_digest (account_id, slot, slot_at, covered_until, watchlist_ids) VALUES ($1, 'daily 09:00', $2, $2, $6), ($1, 'daily 09:00', $3, $3, $7), ($1, 'daily 09:00', $4, $4, $8), ($1, 'daily 09:00', $5, $5, $8)`, [
    a.id, daysAgo(140), daysAgo(130), daysAgo(110), daysAgo(105), [off.id], [moved.id, off.id], [still.id],
  ]);
  for (const r of mailRetentionRules(90)) for await (const _ of r.batches(db.dataSource, now, 50));
  expect(await db.dataSource.query(`SELECT slot, slot_at FROM mail_digest WHERE account_id = $1 ORDER BY slot, slot_at`, [a.id])).toEqual([
    { slot: 'daily 08:00', slot_at: daysAgo(100) },
    { slot: 'daily 09:00', slot_at: daysAgo(130) },
    { slot: 'daily 09:00', slot_at: daysAgo(105) },
    { slot: 'weekly friday 08:00', slot_at: daysAgo(120) },
  ]);
  expect(await rowOf('evt_old_sent')).toBeUndefined();
  expect(await rowOf('evt_old_pending')).toMatchObject({ status: 'pending' });
  const kept = (await db.dataSource.query(`SELECT mail_message_id FROM local_mailbox WHERE account_id = $1 ORDER BY id`, [a.id])) as { mail_message_id: number }[];
  expect(kept).toHaveLength(100);
  expect(kept[0].mail_message_id).toBe(1_000_003);
  expect(await db.dataSource.query(`SELECT token_hash FROM email_verification WHERE account_id = $1`, [a.id])).toHaveLength(1);
});
