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

export type { Logger };
