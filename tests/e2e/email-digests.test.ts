import type { ServiceEvent } from '../../src/events/event';
import { DigestJob } from '../../src/jobs/digest-job';
import { eventually } from '../support/eventually';
import { appWithSmtpServer, type SmtpTestApp } from '../support/smtp-app';

/**
 * Email digests over SMTP (issue 33): a digest arrives at its London time with what changed and
 * the bills' probabilities, none when nothing changed, never twice for one slot (two looks, two
 * processes), weekly only on its day, at 08:00 BST as at 08:00 GMT; alerts held back by the daily
 * bound arrive in the next digest; a watchlist moved to another time loses and repeats nothing; a
 * probability move of 5 points is a change; the preview answers on REST and GraphQL.
 */
let t: SmtpTestApp;
beforeAll(async () => {
  t = await appWithSmtpServer({ trainModel: true });
}, 120_000);
afterAll(() => t.close());

let n = 0;
async function owner(setting: Record<string, unknown>) {
  const email = `digest${++n}@example.com`;
  const key = await t.userWithKey('pilot', email);
  const accountId = await t.accountIdOf(email);
  await t.db.dataSource.query(`UPDATE account SET email_status = 'VERIFIED' WHERE id = $1`, [accountId]);
  const watchlist = await t.services.watchlists.create(accountId, { name: `Digest list ${n}`, billIds: [2900] });
  const res = await t.http().patch(`/api/v1/dashboard/watchlists/${watchlist.id}/notifications`).set('authorization', `Bearer ${key}`).send(setting);
  expect(res.status).toBe(200);
  return { email, key, accountId, watchlistId: watchlist.id };
}
let e = 0;
const stageChanged = (stage = 'second_reading'): ServiceEvent => ({ id: `evt_digest_${++e}_${Date.now()}`, type: 'bill.stage_changed', timestamp: '2021-11-26T09:00:00.000Z', data: { bill_id: 2900, stage_record_id: 1, stage, house: 'Commons', date: '2021-11-26' } });
const stageScheduled = (): ServiceEvent => ({ id: `evt_digest_${++e}_${Date.now()}`, type: 'bill.stage_scheduled', timestamp: '2021-11-26T09:00:00.000Z', data: { bill_id: 2900, stage: 'committee', house: 'Commons', scheduled_for: '2021-12-08' } });
async function emit(events: ServiceEvent[]) {
  await t.services.dataSource.transaction((manager) => t.services.events.log.record(manager, events, '2021-11-26'));
  t.services.events.log.publish(events);
}
const mailsTo = (email: string) => t.smtp.received.filter((m) => m.envelopeTo.includes(email));
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));
/** The account's mails once `count` have arrived: the outbox sends on its own turn, later on a busy machine. */
const arrived = (email: string, count = 1) => eventually(async () => (mailsTo(email).length >= count ? mailsTo(email) : undefined));
const sendDue = (at: string) => t.services.digests.sendDue(new Date(at));
const percent = (p: number) => `${Math.round(p * 100)}%`;

describe('a daily digest', () => {
  it('arrives at its time with the changes and each bill’s probabilities and ETA, once, and the next lists only what is new', async () => {
    const { email, watchlistId } = await owner({ email: 'daily', time: '08:00' });
    await emit([stageChanged(), stageScheduled()]);
    // a minute before 08:00 (GMT in November) nothing is due
    expect((await sendDue('2026-11-23T07:59:00Z')).sent).toBe(0);
    expect((await sendDue('2026-11-23T08:01:00Z')).sent).toBeGreaterThanOrEqual(1);
    const [mail] = await arrived(email);
    const { parsed } = mail;
    expect(parsed.subject).toBe('Daily digest: 2 changes to 1 bill');
    const nowcast = (await t.services.predictions.nowcasts([2900], t.services.clock.today()))[0] as { probabilities: { royal_assent: number; next_stage_30d: number }; billTitle: string };
    expect(parsed.text).toContain(nowcast.billTitle);
    expect(parsed.text).toContain('Second reading (Commons) on 2021-11-26');
    expect(parsed.text).toContain('Committee (Commons) set down for 2021-12-08');
    expect(parsed.text).toContain(`Royal Assent ${percent(nowcast.probabilities.royal_assent)} · next stage within 30 days ${percent(nowcast.probabilities.next_stage_30d)}`);
    expect(parsed.text).toContain('https://bills.example.com/#/bills/2900');
    expect(parsed.text).toContain(`https://bills.example.com/#/watchlists/${watchlistId}`);
    expect(parsed.html).toContain('<a href="https://bills.example.com/#/bills/2900">');
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(mail.raw.replace(/\r?\n[ \t]+/g, ' ')).toMatch(new RegExp(`List-Unsubscribe: <https://bills\\.example\\.com/email/unsubscribe/${watchlistId}\\.[^>]+>, <mailto:alerts@bills\\.test\\?subject=unsubscribe%20[^>]+>`));
    expect(String(parsed.headers.get('x-bill-progress-event-id'))).toMatch(/^digest_[0-9a-f]{24}$/);

    // a second look in the slot, and two more processes' jobs, send nothing more
    expect((await sendDue('2026-11-23T08:02:00Z')).due).toBe(0);
    for (const job of [new DigestJob(t.db.dataSource, t.services.digests, t.services.logger, { postgres: t.db.kind !== 'pglite', now: () => new Date('2026-11-23T08:03:00Z') }), new DigestJob(t.db.dataSource, t.services.digests, t.services.logger, { postgres: t.db.kind !== 'pglite', now: () => new Date('2026-11-23T08:04:00Z') })]) {
      const run = await job.runDue();
      expect(run?.due ?? 0).toBe(0);
    }
    await settle();
    expect(mailsTo(email)).toHaveLength(1);

    // the next day lists what happened since, not again what was sent
    await emit([stageChanged('committee')]);
    await sendDue('2026-11-24T08:01:00Z');
    const next = (await arrived(email, 2))[1].parsed;
    expect(next.subject).toBe('Daily digest: 1 change to 1 bill');
    expect(next.text).toContain('Committee (Commons)');
    expect(next.text).not.toMatch(/second reading/i);
  });

  it('is not sent when nothing changed, and the slot is not read again', async () => {
    const { email, accountId } = await owner({ email: 'daily', time: '09:00' });
    const run = await sendDue('2026-11-23T09:01:00Z');
    expect(run.empty).toBeGreaterThanOrEqual(1);
    await settle();
    expect(mailsTo(email)).toHaveLength(0);
    expect(await t.db.dataSource.query(`SELECT slot, mail_event_id FROM mail_digest WHERE account_id = $1`, [accountId])).toEqual([{ slot: 'daily 09:00', mail_event_id: null }]);
  });

  it('is not sent to an account moved to the Free tier, which has no email, and is sent again once it is back on Pilot', async () => {
    const { email } = await owner({ email: 'daily', time: '10:00' });
    await emit([stageChanged()]);
    await t.services.accounts.setTier(email, 'free');
    expect((await sendDue('2026-11-23T10:01:00Z')).sent).toBe(0);
    await t.services.accounts.setTier(email, 'pilot');
    expect((await sendDue('2026-11-24T10:01:00Z')).sent).toBeGreaterThanOrEqual(1);
    await arrived(email);
    await settle();
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('goes at 06:30 London time in summer, which is 05:30 UTC (BST)', async () => {
    const { email, accountId } = await owner({ email: 'daily', time: '06:30' });
    await emit([stageChanged()]);
    expect((await sendDue('2026-07-01T05:29:00Z')).sent).toBe(0);
    await sendDue('2026-07-01T05:31:00Z');
    await arrived(email);
    await settle();
    expect(mailsTo(email)).toHaveLength(1);
    expect(await t.db.dataSource.query(`SELECT slot_at FROM mail_digest WHERE account_id = $1`, [accountId])).toEqual([{ slot_at: new Date('2026-07-01T05:30:00Z') }]);
  });
});

describe('a weekly digest', () => {
  it('goes only on its day', async () => {
    const { email } = await owner({ email: 'weekly', day: 'friday', time: '07:00' });
    await emit([stageChanged()]);
    await sendDue('2026-11-23T07:01:00Z'); // a Monday
    await settle();
    expect(mailsTo(email)).toHaveLength(0);
    await sendDue('2026-11-27T07:01:00Z'); // a Friday
    await arrived(email);
    await settle();
    expect(mailsTo(email).map((m) => m.parsed.subject)).toEqual(['Weekly digest: 1 change to 1 bill']);
  });
});

describe('alerts held back by the daily bound', () => {
  it('arrive in the next digest, once', async () => {
    const { email, key, accountId } = await owner({ email: 'daily', time: '11:00', events: ['bill.stage_changed'] });
    // a second watchlist sends instant alerts; the account has had its 50 emails today
    const instant = await t.services.watchlists.create(accountId, { name: 'Instant list', billIds: [2900] });
    await t.http().patch(`/api/v1/dashboard/watchlists/${instant.id}/notifications`).set('authorization', `Bearer ${key}`).send({ email: 'instant', events: ['bill.stage_scheduled'] });
    await t.db.dataSource.query(
      `INSERT INTO mail_message (account_id, kind, event_id, to_address, message_id, subject, text_body, raw, status, next_attempt_at, created_at)
       SELECT $1, 'alert', 'evt_cap_' || i, $2, '<cap' || i || '@bills.test>', 's', 't', 'r', 'sent', $3, $3 FROM generate_series(1, 50) i`,
      [accountId, email, new Date('2026-11-22T12:00:00Z')],
    );
    await emit([stageScheduled()]);
    await settle();
    expect(mailsTo(email)).toHaveLength(0);
    expect(await t.db.dataSource.query(`SELECT event_type, digested_at FROM mail_deferred_event WHERE account_id = $1`, [accountId])).toEqual([{ event_type: 'bill.stage_scheduled', digested_at: null }]);

    await sendDue('2026-11-23T11:01:00Z');
    const [digest] = await arrived(email);
    expect(digest.parsed.text).toContain('Committee (Commons) set down for 2021-12-08');
    const [row] = (await t.db.dataSource.query(`SELECT digested_at FROM mail_deferred_event WHERE account_id = $1`, [accountId])) as { digested_at: Date | null }[];
    expect(row.digested_at).not.toBeNull();
  });
});

describe('the preview of the next digest', () => {
  it('answers what the next digest would hold now, on REST and GraphQL, and null when nothing changed', async () => {
    const quiet = await owner({ email: 'daily', time: '10:00' });
    expect((await t.http().get('/api/v1/account/digest-preview').set('authorization', `Bearer ${quiet.key}`)).body).toEqual({ next_digest: null });
    await emit([stageChanged()]);
    const res = await t.http().get('/api/v1/account/digest-preview').set('authorization', `Bearer ${quiet.key}`);
    expect(res.status).toBe(200);
    expect(res.body.next_digest).toMatchObject({ at: '2026-11-23T10:00:00.000Z', slot: 'daily 10:00', watchlist_ids: [quiet.watchlistId], subject: 'Daily digest: 1 change to 1 bill' });
    expect(res.body.next_digest.text).toContain('Second reading (Commons)');
    expect(res.body.next_digest.html).toContain('<h3>');
    const gql = await t.graphql('{ me { nextDigest { at slot subject } } }', { key: quiet.key });
    expect(gql.body.data.me.nextDigest).toEqual({ at: '2026-11-23T10:00:00.000Z', slot: 'daily 10:00', subject: 'Daily digest: 1 change to 1 bill' });
    expect((await t.http().get('/api/v1/account/digest-preview')).status).toBe(401);
  });
});

describe('moving a watchlist to another time', () => {
  it('lists what changed since its last digest at the old time, repeats nothing when moved back, and nothing from while digests were off', async () => {
    const { email, key, watchlistId } = await owner({ email: 'daily', time: '14:00' });
    const patch = async (setting: Record<string, unknown>) => expect((await t.http().patch(`/api/v1/dashboard/watchlists/${watchlistId}/notifications`).set('authorization', `Bearer ${key}`).send(setting)).status).toBe(200);
    const digestAt = async (at: string) => {
      const before = mailsTo(email).length;
      await sendDue(at);
      await eventually(async () => (mailsTo(email).length > before ? true : undefined));
      return mailsTo(email).at(-1)!.parsed.text ?? '';
    };
    await emit([stageChanged()]);
    expect(await digestAt('2026-11-25T14:01:00Z')).toContain('Second reading (Commons)');
    // a change after the 14:00 digest, then the move to 15:00: the 15:00 digest lists it, and only it
    await emit([stageChanged('committee')]);
    await patch({ time: '15:00' });
    const moved = await digestAt('2026-11-25T15:01:00Z');
    expect(moved).toContain('Committee (Commons)');
    expect(moved).not.toMatch(/second reading/i);
    // back to 14:00: the next digest starts after the 15:00 one, not after the old 14:00 one
    await emit([stageChanged('report')]);
    await patch({ time: '14:00' });
    const back = await digestAt('2026-11-26T14:01:00Z');
    expect(back).toContain('Report (Commons)');
    expect(back).not.toMatch(/committee|second reading/i);
    // off, a change, on again: what happened while off is not listed
    await patch({ email: 'off' });
    await emit([stageChanged('third_reading')]);
    await patch({ email: 'daily' });
    expect((await sendDue('2026-11-27T14:01:00Z')).empty).toBeGreaterThanOrEqual(1);
    await settle();
    expect(mailsTo(email)).toHaveLength(3);
  });
});

// last: the snapshot it stores is every later first digest's baseline for the bill
describe('a probability move', () => {
  it('of 5 points or more since the setting was made is a change the digest lists', async () => {
    const nowcast = (await t.services.predictions.nowcasts([2900], t.services.clock.today()))[0] as { probabilities: { royal_assent: number; next_stage_30d: number } };
    const { royal_assent: ra, next_stage_30d: next } = nowcast.probabilities;
    const before = ra >= 0.5 ? ra - 0.1 : ra + 0.1;
    await t.db.dataSource.query(
      `INSERT INTO prediction_snapshot (bill_id, reference_date, model_version, royal_assent, next_stage30d, timeline_eta_days, taken_at) VALUES (2900, '2021-12-30', 1, $1, $2, 10, now() - interval '1 hour')`,
      [before, next],
    );
    const { email } = await owner({ email: 'daily', time: '12:00' });
    await sendDue('2026-11-23T12:01:00Z');
    const [digest] = await arrived(email);
    expect(digest.parsed.subject).toBe('Daily digest: 1 change to 1 bill');
    expect(digest.parsed.text).toContain(`Royal Assent probability ${percent(before)} → ${percent(ra)}`);
    expect(digest.parsed.text).not.toContain('Next stage within 30 days probability');
  });
});
