/**
 * A real SMTP server for tests (the `smtp-server` package), on a free port of 127.0.0.1: it
 * accepts mail and parses each with `mailparser`; a test can make it refuse a recipient (5xx at
 * RCPT), refuse connections for a while (421 at the greeting), answer 4xx/5xx after DATA, or read
 * a message's DATA and never answer it (the sender's attempt stays under way until it is killed).
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeTo: string[];
  /** when its DATA ended (ms since the epoch): when the mail arrived */
  receivedAt: number;
  raw: string;
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** recipients answered with this code at RCPT (e.g. 550) */
  refuseRecipient: Map<string, number>;
  /** while set, every connection is answered with this code at once (e.g. 421) */
  refuseConnections: number | null;
  /** while set, the reply after DATA is this code (e.g. 451 or 554) */
  afterData: number | null;
  /** while set, a message's DATA is read into `held` and never answered (the sender waits until its connection dies) */
  holdData: boolean;
  /** messages read but not accepted (not in `received`): held unanswered, or refused after DATA */
  held: ReceivedMail[];
  /** every RCPT TO address given, accepted or refused, in order */
  rcptAttempts: string[];
  /** resolves once `count` messages have arrived */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

const smtpError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const state: Pick<TestSmtpServer, 'refuseRecipient' | 'refuseConnections' | 'afterData' | 'holdData' | 'held' | 'rcptAttempts'> = {
    refuseRecipient: new Map(),
    refuseConnections: null,
    afterData: null,
    holdData: false,
    held: [],
    rcptAttempts: [],
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (state.refuseConnections) return callback(smtpError(state.refuseConnections, 'Service not available, try again later'));
      callback();
    },
    onRcptTo(address, _session, callback) {
      state.rcptAttempts.push(address.address.toLowerCase());
      const code = state.refuseRecipient.get(address.address.toLowerCase());
      if (code) return callback(smtpError(code, `Mailbox ${address.address} unavailable`));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const receivedAt = Date.now();
        const raw = Buffer.concat(chunks).toString('utf8');
        const { holdData, afterData } = state;
        simpleParser(raw).then(
          (parsed) => {
            const mail = { envelopeTo: session.envelope.rcptTo.map((r) => r.address), receivedAt, raw, parsed };
            (holdData || afterData ? state.held : received).push(mail);
            for (const wake of waiters.splice(0)) wake();
            if (afterData) return callback(smtpError(afterData, 'Message refused'));
            // held: no reply, the sender waits for its 250 until its connection dies
            if (!holdData) callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  // a sender killed mid-session resets its connection: that is the test's doing, not a failure of this server
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const smtp: TestSmtpServer = Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    async waitFor(count: number, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} messages, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as TestSmtpServer;
  return smtp;
}
