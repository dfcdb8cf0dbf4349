import type { ErrorRequestHandler } from 'express';
import { AppError } from '../src/errors';

/** The REST spelling of a domain input name: snake_case, as the specification spells fields. */
export const restName = (domainName: string) => domainName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** What a 401 asks for (RFC 6750): the API key as a bearer token. */
export const BEARER_CHALLENGE = 'Bearer realm="bill-progress"';

/**
 * Errors leaving a REST route in the REST door's words: the input a detail names is renamed to
 * its REST spelling (services name it as the domain does), and a 401 says how to authenticate.
 * The app's JSON error handler then writes the `{"detail"}` body.
 */
export const restErrors: ErrorRequestHandler = (error, _req, res, next) => {
  if (error instanceof AppError) {
    if (error.field) error.message = error.message.split(error.field).join(restName(error.field));
    if (error.code === 'UNAUTHENTICATED') res.set('WWW-Authenticate', BEARER_CHALLENGE);
  }
  next(error);
};
