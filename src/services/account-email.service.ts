/**
 * An account's email address as the email channel sees it (issue 33): its status (UNVERIFIED,
 * VERIFIED, SUPPRESSED), the verification links that set it VERIFIED (single use, 24 hours, only
 * their SHA-256 stored), resending one (rate-limited), and the local mailbox's last messages.
 * The verification mail is written in the transaction that makes the account or changes its
 * address, through the mail outbox (src/events/mail/).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { Mail } from '../events/mail/mail';
import { newMailId } from '../events/mail/outbox';
import { escapeHtml } from '../common/html';
import { AppError, badInput } from '../errors';
import type { EmailStatus } from '../vocabulary';
import { AttemptLimit } from './attempt-limit';
import type { LoginFailureStore } from '../attempts/login-failure-store';

/** A link verifies for this long after it was sent. */
export const VERIFICATION_LIFETIME_MS = 24 * 3600_000;
/** Verification mails one account may ask for again in RESEND_WINDOW_MS (the sign-up's own is not counted). */
export const RESENDS_PER_WINDOW = 3;
export const RESEND_WINDOW_MS = 3600_000;
/** Test emails one account may send itself in TEST_EMAIL_WINDOW_MS: enough to try a mail setup, too few to mail-bomb anyone. */
export const TEST_EMAILS_PER_WINDOW = 5;
export const TEST_EMAIL_WINDOW_MS = 3600_000;
/** Messages of the local mailbox shown: the newest. */
export const OUTBOX_SIZE = 100;

/** 32 random bytes in base64url (256 bits): the link's token. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const tokenHash = (token: string) => createHash('sha256').update(token).digest();

/** A test email just queued: where it goes, and its X-Bill-Progress-Event-Id, to find it in the outbox. */
export interface QueuedTestEmail {
  to: string;
  eventId: string;
}

export interface OutboxMessage {
  id: number;
  to: string;
  subject: string;
  text: string;
  messageId: string;
  eventId: string;
  deliveredAt: Date;
}

/** What opening a link did: verified the address, or nothing (unknown; used, expired or for an address the account no longer has). */
export type VerifyOutcome = { result: 'verified'; email: string } | { result: 'gone'; reason: string } | { result: 'unknown' };

export class AccountEmailService {
  private readonly resends: AttemptLimit;
  private readonly tests: AttemptLimit;

  constructor(
    private readonly dataSource: DataSource,
    private readonly mail: Mail,
    /** PUBLIC_URL without its trailing slash: the links' start */
    private readonly publicUrl: string,
    attempts: LoginFailureStore,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.resends = new AttemptLimit(attempts, RESEND_WINDOW_MS, () => this.now().getTime());
    this.tests = new AttemptLimit(attempts, TEST_EMAIL_WINDOW_MS, () => this.now().getTime());
  }

  /** The page a verification link opens: GET verifies, no log-in (the token is the credential). */
  verificationUrl(token: string): string {
    return `${this.publicUrl}/account/verify-email/${token}`;
  }

  async statusOf(accountId: number): Promise<EmailStatus> {
    const rows = (await this.dataSource.query(`SELECT email_status FROM account WHERE id = $1`, [accountId])) as { email_status: EmailStatus }[];
    if (!rows[0]) throw new AppError('UNAUTHENTICATED', 'The account is gone');
    return rows[0].email_status;
  }

  /**
   * In the caller's transaction: a new link for the account's address (UNVERIFIED once more, unless
   * SUPPRESSED, which stays until the link is opened) and the mail carrying it.
   */
  async sendVerification(manager: EntityManager, account: { id: number; email: string }): Promise<void> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await manager.query(`INSERT INTO email_verification (account_id, token_hash, email, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)`, [account.id, tokenHash(token), account.email, new Date(now.getTime() + VERIFICATION_LIFETIME_MS), now]);
    const url = this.verificationUrl(token);
    await this.mail.enqueue(manager, [
      {
        accountId: account.id,
        to: account.email,
        kind: 'verification',
        content: {
          subject: 'Confirm your email address for Bill Progress',
          text: [
            `Open this link to confirm that ${account.email} is your address and to receive Bill Progress alerts there:`,
            '',
            url,
            '',
            'The link works once, for 24 hours. If you did not sign up for Bill Progress, ignore this email: nothing will be sent to you.',
          ].join('\n'),
        },
      },
    ]);
  }

  /** After the transaction that called sendVerification committed. */
  queued(): void {
    this.mail.queued();
  }

  /** Sends a new link (the dashboard's "resend"): refused when verified already, and past RESENDS_PER_WINDOW an hour. */
  async resend(accountId: number): Promise<void> {
    const rows = (await this.dataSource.query(`SELECT id, email, email_status FROM account WHERE id = $1`, [accountId])) as { id: number; email: string; email_status: EmailStatus }[];
    const account = rows[0];
    if (!account) throw new AppError('UNAUTHENTICATED', 'The account is gone');
    if (account.email_status === 'VERIFIED') throw badInput('The address is verified already');
    await this.resends.take([{ key: `verify-email:${accountId}`, limit: RESENDS_PER_WINDOW }], (minutes) => `Too many verification emails: the limit is ${RESENDS_PER_WINDOW} an hour; try again in ${minutes} minute(s)`);
    await this.dataSource.transaction((manager) => this.sendVerification(manager, account));
    this.queued();
  }

  /**
   * "Send me a test email": one message through the same outbox, worker and transport as alerts
   * (so the same retries, Message-ID and suppression on a 5xx), only to a VERIFIED address, which
   * the worker checks again when it sends; refused before the limit is counted otherwise.
   */
  async sendTest(accountId: number): Promise<QueuedTestEmail> {
    const rows = (await this.dataSource.query(`SELECT id, email, email_status FROM account WHERE id = $1`, [accountId])) as { id: number; email: string; email_status: EmailStatus }[];
    const account = rows[0];
    if (!account) throw new AppError('UNAUTHENTICATED', 'The account is gone');
    if (account.email_status === 'UNVERIFIED') throw badInput(`The address ${account.email} is not verified yet: open the link in the verification email (or ask for a new one), then send a test email`);
    if (account.email_status === 'SUPPRESSED') throw badInput(`The mail server refused ${account.email} for good, so nothing is sent to it: ask for a new verification link and open it, then send a test email`);
    await this.tests.take([{ key: `test-email:${accountId}`, limit: TEST_EMAILS_PER_WINDOW }], (minutes) => `Too many test emails: the limit is ${TEST_EMAILS_PER_WINDOW} an hour; try again in ${minutes} minute(s)`);
    const eventId = newMailId();
    await this.dataSource.transaction((manager) => this.mail.enqueue(manager, [{ accountId, to: account.email, kind: 'test', eventId, content: this.testContent(account.email) }]));
    this.queued();
    return { to: account.email, eventId };
  }

  private testContent(email: string) {
    const settingsUrl = `${this.publicUrl}/#/watchlists`;
    const sentence = `This is a test email from Bill Progress, sent because someone signed in as ${email} asked for one. If it arrived, alerts and digests will reach this address.`;
    return {
      subject: 'Bill Progress test email',
      text: [sentence, '', `Choose what each watchlist emails: ${settingsUrl}`].join('\n'),
      html: `<p>${escapeHtml(sentence)}</p>\n<p><a href="${escapeHtml(settingsUrl)}">Choose what each watchlist emails</a></p>`,
    };
  }

  /** Opens a link: the first opening within 24 hours verifies the address it was sent to, if the account still has it. */
  async verify(token: string): Promise<VerifyOutcome> {
    if (!TOKEN.test(token)) return { result: 'unknown' };
    const now = this.now();
    return this.dataSource.transaction(async (manager) => {
      const rows = (await manager.query(
        `SELECT v.id, v.account_id, v.email, v.expires_at, v.used_at, a.email AS account_email FROM email_verification v JOIN account a ON a.id = v.account_id WHERE v.token_hash = $1 FOR UPDATE OF v`,
        [tokenHash(token)],
      )) as { id: number; account_id: number; email: string; expires_at: Date; used_at: Date | null; account_email: string }[];
      const link = rows[0];
      if (!link) return { result: 'unknown' } as const;
      if (link.used_at) return { result: 'gone', reason: 'This verification link has been used already: the address was verified when it was first opened.' } as const;
      if (new Date(link.expires_at).getTime() <= now.getTime()) return { result: 'gone', reason: 'This verification link has expired (links work for 24 hours): ask the dashboard for a new one.' } as const;
      if (link.email !== link.account_email) return { result: 'gone', reason: 'This link was sent to an address the account no longer has.' } as const;
      await manager.query(`UPDATE email_verification SET used_at = $2 WHERE id = $1`, [link.id, now]);
      await manager.query(`UPDATE account SET email_status = 'VERIFIED' WHERE id = $1`, [link.account_id]);
      return { result: 'verified', email: link.email } as const;
    });
  }

  /** The local mailbox's newest messages for the account (what would have been sent; empty when mail goes over SMTP). */
  async outbox(accountId: number): Promise<OutboxMessage[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, to_address, subject, text_body, message_id, event_id, delivered_at FROM local_mailbox WHERE account_id = $1 ORDER BY id DESC LIMIT ${OUTBOX_SIZE}`,
      [accountId],
    )) as { id: number; to_address: string; subject: string; text_body: string; message_id: string; event_id: string; delivered_at: Date }[];
    return rows.map((r) => ({ id: r.id, to: r.to_address, subject: r.subject, text: r.text_body, messageId: r.message_id, eventId: r.event_id, deliveredAt: new Date(r.delivered_at) }));
  }
}
