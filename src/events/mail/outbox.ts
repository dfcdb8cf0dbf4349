/**
 * Writes mail outbox rows (`mail_message`) in the caller's transaction: composed at once
 * (compose.ts), due now, one per account and event id (a second write of the same is ignored).
 * The worker (worker.ts) finds them once the transaction commits.
 */
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { MailKind } from '../../db/entities/mail-message.entity';
import { composeMail, type MailContent, newMessageId } from './compose';

export interface OutgoingMail {
  accountId: number;
  to: string;
  kind: MailKind;
  /** the event mailed (X-Bill-Progress-Event-Id); a verification mail gets its own `mail_…` id */
  eventId?: string;
  content: MailContent;
}

/** An id for a mail that is no event's: the same shape as event ids, so the header reads alike. */
export const newMailId = () => `mail_${randomBytes(12).toString('hex')}`;

/**
 * The rows as jsonb takes them: a lone surrogate (a title cut inside an emoji) is JSON text that
 * jsonb refuses, and one refused row would fail the event's whole transaction; written as U+FFFD,
 * as a text parameter's UTF-8 encoding writes it.
 */
const rowsJson = (rows: readonly Record<string, unknown>[]) => JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'string' ? Buffer.from(value, 'utf8').toString('utf8') : value));

/** Rows one INSERT carries at most: on the embedded database one statement holds the event loop, and an alert's row is a few KB. */
const ROWS_PER_STATEMENT = 100;

/**
 * Inserts the messages; returns how many were new (an account gets an event once). Composed
 * first, then written as JSON rows, ROWS_PER_STATEMENT a statement: a statement per message cost
 * most of a refresh's transaction when an event went to a thousand accounts.
 */
export async function enqueueMail(manager: Pick<EntityManager, 'query'>, from: string, mails: readonly OutgoingMail[], now: Date): Promise<number> {
  const rows: Record<string, unknown>[] = [];
  for (const mail of mails) {
    const eventId = mail.eventId ?? newMailId();
    const { messageId, raw } = await composeMail({ from, to: mail.to, eventId, messageId: newMessageId(from), date: now, content: mail.content });
    rows.push({ account_id: mail.accountId, kind: mail.kind, event_id: eventId, to_address: mail.to, message_id: messageId, subject: mail.content.subject, text_body: mail.content.text, raw });
  }
  let inserted = 0;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    // DO NOTHING also skips a second row of one account and event within the statement
    const answer = (await manager.query(
      `INSERT INTO mail_message (account_id, kind, event_id, to_address, message_id, subject, text_body, raw, next_attempt_at, created_at)
       SELECT r.account_id, r.kind, r.event_id, r.to_address, r.message_id, r.subject, r.text_body, r.raw, $2, $2
         FROM jsonb_to_recordset($1::jsonb) AS r(account_id int, kind text, event_id text, to_address text, message_id text, subject text, text_body text, raw text)
       ON CONFLICT (account_id, event_id) DO NOTHING RETURNING id`,
      [rowsJson(rows.slice(i, i + ROWS_PER_STATEMENT)), now],
    )) as { id: number }[];
    inserted += answer.length;
  }
  return inserted;
}
