import { fstatSync } from 'node:fs';
import pino, { type Logger } from 'pino';

/** Paths that may hold credentials anywhere in a log object; pino replaces them before writing. */
const SECRET_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.newPassword',
  '*.currentPassword',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.secret',
  '*.password',
  // SQL parameters of a failed query can hold emails and key hashes
  'err.parameters',
  '*.parameters',
  'apiKey',
  'api_key',
  'token',
  'secret',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: SECRET_PATHS, censor: '[redacted]' }, base: { service: 'bill-progress' } }, destination);
}

/**
 * Standard output as the server's log destination. To a file, a terminal or /dev/null each line is
 * written as it is made: pino's default hands every line to a libuv thread, a thread wake-up per
 * request on a busy server, and a crash could lose the lines still queued. To a pipe or socket (a
 * container runtime, journald, `| tee`) it stays asynchronous: a reader falling behind must not
 * block every request.
 */
export function standardOutput(): pino.DestinationStream {
  let writesNeverWait = false;
  try {
    const stat = fstatSync(1);
    writesNeverWait = stat.isFile() || stat.isCharacterDevice();
  } catch {
    // no standard output to look at: pino's default
  }
  return pino.destination({ fd: 1, sync: writesNeverWait });
}

type Destination = { sync?: boolean; flushSync?: () => void; end?: () => void; once?: (event: string, listener: () => void) => void };

const destinationOf = (logger: Logger) => (logger as unknown as Record<symbol, Destination | undefined>)[pino.symbols.streamSym];

/**
 * Logs a process's last line at fatal level, writes out every line still queued, in order, then
 * calls `done`. pino (10 has no `pino.final`) flushes its destinations on exit only under
 * conditions (main thread, no coverage run), so a crash's last line must not depend on them.
 * pino's `fatal` writes its destination out synchronously, which to an asynchronous one (a pipe)
 * with a write in flight on libuv's pool puts everything after that write before it: so there the
 * line is only queued, and the destination ended, which writes the rest after the write in
 * flight; `done` follows its close, or `deadlineMs` if the reader stopped reading.
 */
export function logLastLine(logger: Logger, fields: object, message: string, done: () => void, deadlineMs = 2_000): void {
  const destination = destinationOf(logger);
  let called = false;
  const finish = () => {
    if (called) return;
    called = true;
    done();
  };
  if (!destination || destination.sync !== false || !destination.end || !destination.once) {
    try {
      logger.fatal(fields, message);
    } finally {
      finish();
    }
    return;
  }
  try {
    (destination as Record<string, unknown>).flushSync = undefined;
    logger.fatal(fields, message);
  } finally {
    delete (destination as Record<string, unknown>).flushSync;
  }
  try {
    destination.once('close', finish);
    destination.end();
    setTimeout(finish, deadlineMs);
  } catch {
    finish();
  }
}

export type { Logger };
