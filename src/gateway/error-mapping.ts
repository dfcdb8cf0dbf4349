import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, mapAppError, type MappedError } from '../errors';

export type { MappedError } from '../errors';

/*
 * Error mapping, the last step of the pipeline: one error, one code, and from the code a REST
 * status with `{"detail"}` and a GraphQL `extensions.code`. The code and status come from the
 * graphql-free core (`mapAppError`, which the admin CLI uses too); here GraphQL's wrappers are
 * looked through, and what graphql-js finds wrong with a request is the client's.
 */

/**
 * The error inside the GraphQLError graphql-js or Apollo wrapped it in: a resolver's (it has a
 * path), or one of ours thrown from a plugin, the context or the executor.
 */
function unwrapGraphQLError(error: unknown): unknown {
  return error instanceof GraphQLError && error.originalError && (error.path || error.originalError instanceof AppError) ? error.originalError : error;
}

/** Errors graphql-js raises about the request itself (syntax, validation, variables): the client's. */
function raisedByGraphQL(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError);
}

export function mapError(error: unknown): MappedError {
  const original = unwrapGraphQLError(error);
  if (raisedByGraphQL(original)) return { code: 'BAD_USER_INPUT', status: 400, detail: original.message, headers: {}, internal: false };
  // a dependency's failure (the database unreachable) becomes our 503 there, on every door
  return mapAppError(original);
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
  onInternal(unwrapGraphQLError(error));
  return { ...client, message: mapped.detail, extensions: { code: mapped.code } };
}
