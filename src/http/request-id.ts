import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger';

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

/** 503 is a known state (data loading, a dependency down, said once when it changed), not a failure of a request. */
const isUnavailable = (res: ServerResponse) => res.statusCode === 503;

/**
 * Mounted first: gives every response (404s, errors, /graphql, /readyz included) its X-Request-Id
 * and logs each request once under that id when it ends: method, path without the query string,
 * status and time; never headers or bodies, which carry keys. A 500 is an error with its cause; a
 * 503 is logged at info without a stack; 4xx and success at info.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: requestId,
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (isUnavailable(res) ? 'info' : error || res.statusCode >= 500 ? 'error' : 'info'),
    // pino-http makes up an Error (with a stack) for any status >= 500: a 503 carries none
    customErrorObject: (_req, res, _error, loggable: Record<string, unknown>) => (isUnavailable(res) ? { ...loggable, err: undefined } : loggable),
    customErrorMessage: (_req, res) => (isUnavailable(res) ? 'request completed' : 'request errored'),
  }) as unknown as RequestHandler;
}
