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

/** Inserts the messages; returns how many were new (an account gets an event once). */
export async function enqueueMail(manager: Pick<EntityManager, 'query'>, from: string, mails: readonly OutgoingMail[], now: Date): Promise<number> {
  let inserted = 0;
  for (const mail of mails) {
    const eventId = mail.eventId ?? newMailId();
    const { messageId, raw } = await composeMail({ from, to: mail.to, eventId, messageId: newMessageId(from), date: now, content: mail.content });
    const rows = (await manager.query(
      `INSERT INTO mail_message (account_id, kind, event_id, to_address, message_id, subject, text_body, raw, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT (account_id, event_id) DO NOTHING RETURNING id`,
      [mail.accountId, mail.kind, eventId, mail.to, messageId, mail.content.subject, mail.content.text, raw, now],
    )) as { id: number }[];
    inserted += rows.length;
  }
  return inserted;
}
