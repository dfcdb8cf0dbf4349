import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * The id a request is logged and answered under: the client's X-Request-Id when it is a sane
 * token (so a client can correlate), a fresh UUID otherwise. Echoed in the response header.
 */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}
