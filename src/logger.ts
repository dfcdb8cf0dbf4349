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

/**
 * Writes now whatever lines the logger's destination still holds (an asynchronous one buffers
 * them), for a process about to end at once. pino (10 has no `pino.final`) flushes its own
 * destinations on exit only under conditions (main thread, no coverage run): a crash's last line
 * must not depend on them.
 */
export function flushLogsNow(logger: Logger): void {
  const destination = (logger as unknown as Record<symbol, { flushSync?: () => void } | undefined>)[pino.symbols.streamSym];
  try {
    destination?.flushSync?.();
  } catch {
    // a destination that cannot be written any more: nothing is left to tell
  }
}

export type { Logger };
