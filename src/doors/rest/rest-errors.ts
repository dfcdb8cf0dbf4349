import type { ErrorRequestHandler } from 'express';
import { AppError } from '../../errors';

/** The REST spelling of a domain input name: snake_case, as the specification spells fields. */
export const restName = (domainName: string) => domainName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * Errors leaving a REST route in the REST door's words: the input a detail names is renamed to
 * its REST spelling (services name it as the domain does). The app's JSON error handler then
 * writes the `{"detail"}` body, with the headers the error carries (a 401's WWW-Authenticate).
 */
export const restErrors: ErrorRequestHandler = (error, _req, _res, next) => {
  if (error instanceof AppError && error.field) error.message = error.message.split(error.field).join(restName(error.field));
  next(error);
};
