import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, publicError } from './errors';
import type { Logger } from './logger';

/** 404 `{"detail"}` for any path no route answered. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError('NOT_FOUND', `No such endpoint: ${req.method} ${req.path}`));
};

interface BodyParserError {
  type?: string;
  status?: number;
}

/** What the express body parser reports, as our error type: malformed JSON is the client's fault, never a 500. */
function fromBodyParser(error: BodyParserError): AppError | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return new AppError('BAD_USER_INPUT', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new AppError('BAD_USER_INPUT', 'The request body is too large');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError('BAD_USER_INPUT', 'The request body must be UTF-8 JSON');
    default:
      return error.status && error.status >= 400 && error.status < 500 ? new AppError('BAD_USER_INPUT', 'The request body could not be read') : null;
  }
}

/** Every error leaves as `{"detail": "..."}` with the status its code maps to; a 500 never shows internals. */
export function jsonErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const known = error instanceof AppError ? error : fromBodyParser(error as BodyParserError);
    const { status, detail } = publicError(known ?? error);
    if (status >= 500) logger.error({ err: error, method: req.method, path: req.path }, 'request failed');
    const headers = known?.extensions.http as { headers?: Map<string, string> } | undefined;
    for (const [name, value] of headers?.headers ?? []) res.setHeader(name, value);
    if (!res.headersSent) res.status(status).json({ detail });
  };
}
