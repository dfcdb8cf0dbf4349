/**
 * The email channel, connected: the outbox writer (outbox.ts) bound to the sender's address, the
 * transport (SMTP when SMTP_URL is set, the local mailbox otherwise) and the worker sending the
 * outbox through it. Services write mail with `enqueue` in their own transaction and call
 * `queued` after it commits.
 */
import type { DataSource, EntityManager } from 'typeorm';
import type { Logger } from '../../logger';
import { enqueueMail, type OutgoingMail } from './outbox';
import { localMailboxTransport, type MailTransport, smtpTransport } from './transport';
import { MailWorker } from './worker';

export interface MailOptions {
  dataSource: DataSource;
  embedded: boolean;
  logger: Logger;
  /** SMTP_URL; without it mail goes to the local mailbox */
  smtpUrl?: string;
  /** MAIL_FROM */
  from: string;
  /** the real time of rows and claims (tests move it) */
  now?: () => Date;
  /** a transport of the test's own */
  transport?: MailTransport;
}

export interface Mail {
  /** MAIL_FROM */
  from: string;
  /** where mail goes, for the start-up log (never SMTP credentials) */
  destination: string;
  /** whether mail goes to the local mailbox (no SMTP_URL) */
  local: boolean;
  worker: MailWorker;
  /** writes the messages in the caller's transaction; how many were new */
  enqueue(manager: Pick<EntityManager, 'query'>, mails: readonly OutgoingMail[]): Promise<number>;
  /** after the transaction that enqueued committed: the worker looks at once */
  queued(): void;
}

export const DEFAULT_MAIL_FROM = 'Bill Progress <no-reply@localhost>';

export function createMail(options: MailOptions): Mail {
  const transport = options.transport ?? (options.smtpUrl ? smtpTransport(options.smtpUrl) : localMailboxTransport(options.dataSource));
  const now = options.now ?? (() => new Date());
  const worker = new MailWorker(options.dataSource, { transport, from: options.from, embedded: options.embedded, logger: options.logger, now });
  return {
    from: options.from,
    destination: transport.description,
    local: !options.smtpUrl && !options.transport,
    worker,
    enqueue: (manager, mails) => enqueueMail(manager, options.from, mails, now()),
    queued: () => worker.wake(),
  };
}
