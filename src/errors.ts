import { isConnectionFailure } from './common/connection-failure';

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

/**
 * The HTTP head of a GraphQL response an error asks for, where graphql-js and Apollo Server look
 * for it: graphql-js copies a thrown error's `extensions` onto the GraphQLError it wraps it in, and
 * Apollo Server sets the status and headers of /graphql from `extensions.http`. Spelt here without
 * importing graphql, so what only needs the errors (the admin CLI) does not load it.
 */
interface GraphQLExtensions {
  code: ErrorCode;
  http: { status: number; headers?: Map<string, string> };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** headers the answer carries whatever the door (WWW-Authenticate, a 429's rate-limit headers) */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The input the detail names, in the domain's (camelCase) spelling, as it appears in the detail;
   * each door renames it to its own spelling (REST: snake_case), so no client reads another door's names.
   */
  readonly field: string | undefined;
  readonly extensions: GraphQLExtensions;

  constructor(code: ErrorCode, detail: string, options: { headers?: Record<string, string>; field?: string } = {}) {
    super(detail);
    this.name = 'AppError';
    const status = ERROR_CODES[code];
    const headers = { ...CODE_HEADERS[code], ...options.headers };
    this.code = code;
    this.status = status;
    this.headers = headers;
    this.field = options.field;
    this.extensions = { code, http: { status, ...(Object.keys(headers).length ? { headers: new Map(Object.entries(headers)) } : {}) } };
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

/**
 * The answer any door gives for a thrown value: an error code, and from it the status with the
 * `detail` a client may read. A client's mistake is never a 500; anything that failed inside is
 * masked, and `internal` says to log it.
 */
export interface MappedError {
  code: ErrorCode;
  status: number;
  detail: string;
  /** headers the error asks for (WWW-Authenticate, Retry-After and the rate-limit headers of a 429) */
  headers: Record<string, string>;
  /** true when the failure is ours: log it */
  internal: boolean;
}

/** The core of the error mapping, free of any transport or GraphQL: the gateway adds what GraphQL wraps errors in. */
export function mapAppError(thrown: unknown): MappedError {
  const error = asAppError(thrown);
  if (error) return { code: error.code, status: error.status, detail: error.message, headers: { ...error.headers }, internal: false };
  return { code: 'INTERNAL_SERVER_ERROR', status: 500, detail: INTERNAL_DETAIL, headers: {}, internal: true };
}
