import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError } from '../../../../src/errors';
import { graphqlError, mapError, restError } from '../../../../src/gateway/error-mapping';

const asResolverError = (original: Error) => new GraphQLError(original.message, { path: ['prediction'], originalError: original });
const formatted = (error: GraphQLError, code = 'INTERNAL_SERVER_ERROR'): GraphQLFormattedError => ({ ...error.toJSON(), extensions: { code } });

describe('one error mapping for every door', () => {
  it.each([
    ['BAD_USER_INPUT', 400],
    ['UNAUTHENTICATED', 401],
    ['FORBIDDEN', 403],
    ['NOT_FOUND', 404],
    ['RATE_LIMITED', 429],
    ['SERVICE_UNAVAILABLE', 503],
  ] as const)('maps %s to REST status %i with its detail, and to the same GraphQL code', (code, status) => {
    const error = new AppError(code, 'what happened');
    expect(restError(error)).toMatchObject({ status, body: { detail: 'what happened' } });
    expect(graphqlError(formatted(asResolverError(error)), asResolverError(error), () => undefined)).toMatchObject({ message: 'what happened', extensions: { code } });
  });

  it('keeps the headers an error asks for (a 429’s rate-limit headers)', () => {
    expect(restError(new AppError('RATE_LIMITED', 'slow down', { headers: { 'Retry-After': '5' } })).headers).toEqual({ 'Retry-After': '5' });
  });

  it('makes mistakes graphql-js or Apollo find in a request the client’s: BAD_USER_INPUT, never INTERNAL_SERVER_ERROR', () => {
    const syntax = new GraphQLError('Syntax Error: Expected Name, found <EOF>.');
    expect(mapError(syntax)).toMatchObject({ code: 'BAD_USER_INPUT', status: 400 });
    expect(graphqlError(formatted(syntax, 'GRAPHQL_PARSE_FAILED'), syntax, () => undefined).extensions).toEqual({ code: 'BAD_USER_INPUT' });
  });

  it('masks and reports anything that failed inside, on both doors', () => {
    const bug = new TypeError('cannot read x of undefined');
    const reported: unknown[] = [];
    expect(restError(bug)).toMatchObject({ status: 500, body: { detail: 'Internal server error' }, internal: true });
    expect(graphqlError(formatted(asResolverError(bug)), asResolverError(bug), (e) => reported.push(e))).toMatchObject({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(reported).toEqual([bug]);
  });
});
