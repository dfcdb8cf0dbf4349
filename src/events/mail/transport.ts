/**
 * Where the mail outbox sends to: an SMTP server (SMTP_URL, through nodemailer's pooled transport),
 * or, without one, the local mailbox table that each account reads through `outbox`. Both answer
 * an attempt the same three ways, so the worker treats them alike.
 */
import nodemailer from 'nodemailer';
import type { DataSource } from 'typeorm';
import { fromAddress } from './compose';

/** An outbox row as claimed for an attempt. */
export interface ClaimedMail {
  id: number;
  account_id: number;
  to_address: string;
  event_id: string;
  message_id: string;
  subject: string;
  text_body: string;
  raw: string;
  attempt: number;
  kind: string;
}

/**
 * `sent`: the server took it (250 after DATA); `retry`: a connection failure, a timeout or a 4xx
 * (temporary, RFC 5321 4.2.1), tried again on the retry schedule; `refused`: a 5xx to RCPT or after
 * DATA, the address refused for good: it is suppressed, never tried again until verified anew.
 */
export type MailAttempt = { outcome: 'sent' } | { outcome: 'retry' | 'refused'; error: string };

export interface MailTransport {
  /** where mail goes, for the start-up log: never the credentials */
  readonly description: string;
  send(mail: ClaimedMail, from: string): Promise<MailAttempt>;
  close(): void;
}

/** What an SMTP error says: a 5xx at RCPT or DATA refuses the address; anything else is worth retrying. */
export function classifySmtpError(error: unknown): MailAttempt {
  const e = error as { responseCode?: number; command?: string; code?: string; message?: string };
  const detail = `${e.code ?? 'error'}${e.responseCode ? ` ${e.responseCode}` : ''}${e.command ? ` at ${e.command}` : ''}: ${String(e.message ?? error).slice(0, 300)}`;
  // a 5xx to MAIL FROM or AUTH is this server's configuration, not the recipient's address: retried (and logged)
  if (e.responseCode !== undefined && e.responseCode >= 500 && e.responseCode < 600 && /^(RCPT|DATA)/.test(e.command ?? '')) return { outcome: 'refused', error: detail };
  return { outcome: 'retry', error: detail };
}

/** The SMTP server without its user name or password: `smtp://mail.example.com:587`. */
export function describeSmtpUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
}

/** Connections kept open to the SMTP server; the worker's attempts queue for them. */
const SMTP_CONNECTIONS = 4;

export function smtpTransport(smtpUrl: string, options: { timeoutMs?: number } = {}): MailTransport {
  const timeout = options.timeoutMs ?? 30_000;
  const transporter = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: SMTP_CONNECTIONS, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout } as never);
  return {
    description: `SMTP ${describeSmtpUrl(smtpUrl)}`,
    async send(mail, from) {
      try {
        // the composed bytes as they are (their Message-ID and Date included); the envelope from the row
        await transporter.sendMail({ envelope: { from: fromAddress(from), to: mail.to_address }, raw: mail.raw });
        return { outcome: 'sent' };
      } catch (error) {
        return classifySmtpError(error);
      }
    },
    close: () => transporter.close(),
  };
}

/** The local mailbox: a delivery is a row (once per outbox row, so a repeated delivery adds none). */
export function localMailboxTransport(dataSource: DataSource): MailTransport {
  return {
    description: 'the local mailbox (no SMTP_URL): each account reads its mail through GraphQL `outbox` and GET /api/v1/account/outbox',
    async send(mail) {
      await dataSource.query(
        `INSERT INTO local_mailbox (account_id, mail_message_id, to_address, message_id, event_id, subject, text_body) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (mail_message_id) DO NOTHING`,
        [mail.account_id, mail.id, mail.to_address, mail.message_id, mail.event_id, mail.subject, mail.text_body],
      );
      return { outcome: 'sent' };
    },
    close: () => undefined,
  };
}
