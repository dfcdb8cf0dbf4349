/**
 * Builds a message's bytes with nodemailer's MailComposer (no hand-written MIME), once, when its
 * outbox row is written: the Message-ID and Date fixed then are what every retry sends, so a
 * message sent twice across a crash is one a mail system recognises as a duplicate.
 */
import { randomBytes } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';

/** What a message says; who it is from and its ids are the outbox's. */
export interface MailContent {
  subject: string;
  text: string;
  /** the HTML part; alert mails carry one, the verification mail is plain text */
  html?: string;
  /** extra headers (List-Unsubscribe, …), written as given */
  headers?: Record<string, string>;
}

export interface ComposedMail {
  messageId: string;
  raw: string;
}

/** The bare address of a From line (`Bill Progress <a@b>` → `a@b`): MAIL FROM, the mailto unsubscribe. */
export function fromAddress(from: string): string {
  return (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();
}

/** The domain of a From address (`Name <a@b>` or `a@b`), for Message-IDs that name the sender. */
export function senderDomain(from: string): string {
  return fromAddress(from).split('@')[1]?.trim().toLowerCase() || 'localhost';
}

/** A Message-ID unique to one row: 128 random bits at the sender's domain. */
export function newMessageId(from: string): string {
  return `<${randomBytes(16).toString('hex')}@${senderDomain(from)}>`;
}

/**
 * The whole message: From, To, Subject, Date, the fixed Message-ID, X-Bill-Progress-Event-Id and
 * the extra headers; a text part, and an HTML alternative when given.
 */
export async function composeMail(options: { from: string; to: string; eventId: string; messageId: string; date: Date; content: MailContent }): Promise<ComposedMail> {
  const { from, to, eventId, messageId, date, content } = options;
  const composer = new MailComposer({
    from,
    to,
    subject: content.subject,
    text: content.text,
    html: content.html,
    messageId,
    date,
    headers: { 'X-Bill-Progress-Event-Id': eventId, ...content.headers },
  });
  const raw = await new Promise<Buffer>((resolve, reject) => composer.compile().build((error, message) => (error ? reject(error) : resolve(message))));
  return { messageId, raw: raw.toString('utf8') };
}
