import { GraphQLError } from 'graphql';
import { isConnectionFailure } from './db/connection-failure';

/**
 * The service's one error type. Its code decides the GraphQL `extensions.code` and the HTTP status,
 * and its message is the `detail` REST clients see, so it must never carry internals or secrets.
 */
export const ERROR_CODES = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** What a 401 asks for on every door (RFC 6750): the API key as a bearer token. */
export const BEARER_CHALLENGE = 'Bearer realm="bill-progress"';

/** Headers an error code always carries, whatever raised it. */
const CODE_HEADERS: Partial<Record<ErrorCode, Record<string, string>>> = { UNAUTHENTICATED: { 'WWW-Authenticate': BEARER_CHALLENGE } };

export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;
  /**
   * The input the detail names, in the domain's (camelCase) spelling, as it appears in the detail;
   * each door renames it to its own spelling (REST: snake_case), so no client reads another door's names.
   */
  readonly field: string | undefined;

  constructor(code: ErrorCode, detail: string, options: { headers?: Record<string, string>; field?: string } = {}) {
    const status = ERROR_CODES[code];
    const all = { ...CODE_HEADERS[code], ...options.headers };
    const headers = Object.keys(all).length ? new Map(Object.entries(all)) : undefined;
    // Apollo Server reads extensions.http to set the response status of /graphql.
    super(detail, { extensions: { code, http: { status, ...(headers ? { headers } : {}) } } });
    this.code = code;
    this.status = status;
    this.field = options.field;
  }
}

/** A client mistake; `field` is the domain name of the input it is about when the detail names one. */
export const badInput = (detail: string, field?: string) => new AppError('BAD_USER_INPUT', detail, { field });
export const notFound = (detail: string) => new AppError('NOT_FOUND', detail);
export const unavailable = (detail: string) => new AppError('SERVICE_UNAVAILABLE', detail);

export const INTERNAL_DETAIL = 'Internal server error';

export const DATABASE_UNAVAILABLE = 'Service unavailable: the database is unreachable; retry shortly';

/**
 * The service's error for a thrown value when it has one: an AppError itself, or a 503 for a
 * database that could not be reached (its driver's errors reach us from anywhere a query runs).
 */
export function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isConnectionFailure(error)) return new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE);
  return null;
}

/** The status and detail a client may see for any thrown value; anything not an AppError is masked as a 500. */
export function publicError(thrown: unknown): { status: number; detail: string; code: ErrorCode } {
  const error = asAppError(thrown);
  if (error) return { status: error.status, detail: error.message, code: error.code };
  return { status: 500, detail: INTERNAL_DETAIL, code: 'INTERNAL_SERVER_ERROR' };
}
