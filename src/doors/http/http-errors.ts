import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { AppError } from '../../errors';
import { restError } from '../../gateway/error-mapping';
import type { Logger } from '../../logger';

/** 404 `{"detail"}` for any path no route answered. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError('NOT_FOUND', `No such endpoint: ${req.method} ${req.path}`));
};

interface BodyParserError {
  type?: string;
  status?: number;
  /** the size limit, in bytes, when the body was too large */
  limit?: number;
}

/** What the express body parser reports, as our error type: malformed JSON is the client's fault, never a 500. */
function fromBodyParser(error: BodyParserError): AppError | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return new AppError('BAD_USER_INPUT', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${error.limit ?? 'the server'} bytes`);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError('BAD_USER_INPUT', 'The request body must be UTF-8 JSON');
    default:
      return error.status && error.status >= 400 && error.status < 500 ? new AppError('BAD_USER_INPUT', 'The request body could not be read') : null;
  }
}

/** The mapped error of anything a handler or express's body parser throws; a 500 is logged, its internals never shown. */
function mappedError(logger: Logger, error: unknown, req: Request) {
  const known = error instanceof AppError ? error : fromBodyParser(error as BodyParserError);
  const mapped = restError(known ?? error);
  if (mapped.internal) logger.error({ err: error, method: req.method, path: req.path }, 'request failed');
  return mapped;
}

/** Every error leaves as `{"detail": "..."}` with the status its code maps to; a 500 never shows internals. */
export function jsonErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const mapped = mappedError(logger, error, req);
    if (res.headersSent) return;
    res.set(mapped.headers);
    res.status(mapped.status).json(mapped.body);
  };
}

/**
 * /graphql's errors raised before Apollo answers (the per-address limit at the door's edge, a body
 * too large or not JSON, a document beyond the limits) in GraphQL's shape, as Apollo answers its
 * own: `{"errors": [{"message", "extensions": {"code"}}]}` with the status and headers of the code.
 */
export function graphqlErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const mapped = mappedError(logger, error, req);
    if (res.headersSent) return;
    res.set(mapped.headers);
    res.status(mapped.status).json({ errors: [{ message: mapped.detail, extensions: { code: mapped.code } }] });
  };
}
