import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, asAppError, ERROR_CODES, type ErrorCode, INTERNAL_DETAIL } from '../errors';

/**
 * Error mapping, the last step of the pipeline: one error, one code, and from the code a REST
 * status with `{"detail"}` and a GraphQL `extensions.code`. A client's mistake is never a 500 on
 * either door; anything that failed inside is masked and logged.
 */
export interface MappedError {
  code: ErrorCode;
  status: number;
  detail: string;
  /** headers the error asks for (Retry-After and the rate-limit headers of a 429) */
  headers: Record<string, string>;
  /** true when the failure is ours: log it */
  internal: boolean;
}

/** The error a resolver threw, out of the GraphQLError execution wrapped it in. */
function unwrapResolverError(error: unknown): unknown {
  return error instanceof GraphQLError && error.path && error.originalError ? error.originalError : error;
}

/** Errors graphql-js raises about the request itself (syntax, validation, variables): the client's. */
function raisedByGraphQL(error: unknown): boolean {
  return error instanceof GraphQLError && !(error instanceof AppError) && (!error.originalError || error.originalError instanceof GraphQLError);
}

export function mapError(error: unknown): MappedError {
  // a dependency's failure (the database unreachable) becomes our 503 here, on both doors
  const original = asAppError(unwrapResolverError(error)) ?? unwrapResolverError(error);
  if (original instanceof AppError) {
    const http = original.extensions.http as { headers?: Map<string, string> } | undefined;
    return { code: original.code, status: ERROR_CODES[original.code], detail: original.message, headers: Object.fromEntries(http?.headers ?? []), internal: false };
  }
  if (raisedByGraphQL(original)) return { code: 'BAD_USER_INPUT', status: 400, detail: (original as GraphQLError).message, headers: {}, internal: false };
  return { code: 'INTERNAL_SERVER_ERROR', status: 500, detail: INTERNAL_DETAIL, headers: {}, internal: true };
}

/** The REST answer for an error: status, `{"detail"}` body and headers. */
export function restError(error: unknown): MappedError & { body: { detail: string } } {
  const mapped = mapError(error);
  return { ...mapped, body: { detail: mapped.detail } };
}

/**
 * A GraphQL error as the client sees it: ours keep their code; errors Apollo raises about the
 * request (it gives them codes such as GRAPHQL_PARSE_FAILED) are BAD_USER_INPUT; anything else is
 * masked as INTERNAL_SERVER_ERROR (and `onInternal` is told, to log it).
 */
export function graphqlError(formatted: GraphQLFormattedError, error: unknown, onInternal: (error: unknown) => void): GraphQLFormattedError {
  const client = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  const mapped = mapError(error);
  if (!mapped.internal) return { ...client, message: mapped.detail, extensions: { code: mapped.code } };
  const apolloCode = formatted.extensions?.code;
  if (apolloCode && apolloCode !== 'INTERNAL_SERVER_ERROR') return { ...client, extensions: { code: 'BAD_USER_INPUT' } };
  onInternal(unwrapResolverError(error));
  return { ...client, message: INTERNAL_DETAIL, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}
