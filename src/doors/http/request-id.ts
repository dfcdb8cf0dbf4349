import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../logger';

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

/**
 * The headers every response of the service carries, set before anything answers (routes, error
 * handlers, static files, the not-ready server): its id, and `X-Content-Type-Options: nosniff`, so
 * a browser takes each body for the type it is labelled with and never runs a JSON error that
 * echoes a client's input as HTML or script. Returns the id.
 */
export function answerHeaders(req: IncomingMessage, res: ServerResponse): string {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  return requestId(req, res);
}

/** Told of each request answered in full (not aborted), with its time in ms: e.g. the metrics. */
export type RequestObserver = (req: Request, res: Response, elapsedMs: number) => void;

/**
 * Mounted first: gives every response (404s, errors, /graphql, /readyz included) its answerHeaders
 * and logs each request once under that id when it ends: method, path without the query string,
 * status and time; never headers or bodies, which carry keys. A 500 is logged as an error (its
 * cause is logged where it was caught, see http-errors.ts); a 503 is a known state (data loading,
 * a dependency down, said once when it changed) and is logged at info like 4xx and success;
 * /healthz and /readyz at debug.
 * One pino call per request: pino-http did the same with a child logger and serializers per
 * request, which cost several times more under load. `observers` hear the same end of the same
 * request, so every request has one listener, not one per concern.
 */
/** Health and readiness probes: logged at debug unless they fail with an error of ours (a 500). */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Paths whose last segment is a secret token (an email's links; a watchlist's calendar and Atom
 * addresses, whose token is their only credential): logged with `:token` in its place, the
 * calendar's and feed's extension kept.
 */
const TOKEN_PATHS = /^(\/account\/verify-email\/|\/email\/unsubscribe\/|\/api\/v1\/calendar\/|\/api\/v1\/feeds\/)[^/]+?(\.ics|\.atom)?$/;
export const loggedPath = (path: string) => path.replace(TOKEN_PATHS, '$1:token$2');

export function requestLogging(logger: Logger, observers: readonly RequestObserver[] = []): RequestHandler {
  // The line holds the id, method, path (no query string), status and time, none of which any
  // redaction path names: pino's redaction, which walks every entry, is left out of this one.
  const requests = logger.child({}, { redact: { paths: [] } });
  return (req, res, next) => {
    const started = performance.now();
    const id = answerHeaders(req, res);
    (req as { id?: string }).id = id;
    res.once('close', () => {
      const status = res.statusCode;
      const elapsed = performance.now() - started;
      const entry = { req: { id, method: req.method, path: loggedPath((req.originalUrl ?? req.url).split('?')[0]) }, res: { status }, responseTime: Math.round(elapsed) };
      if (!res.writableFinished) return requests.info(entry, 'request aborted');
      if (status >= 500 && status !== 503) requests.error(entry, 'request errored');
      // a supervisor polls these every second or so: at info they buried a start's own lines (a readiness change is logged where it happens)
      else if (PROBES.has(entry.req.path)) requests.debug(entry, 'request completed');
      else requests.info(entry, 'request completed');
      // a listener that throws would take the process down with it: an observer's fault is logged, not thrown
      for (const observe of observers) {
        try {
          observe(req, res, elapsed);
        } catch (error) {
          requests.error({ err: error, req: entry.req }, 'request observer failed');
        }
      }
    });
    next();
  };
}
