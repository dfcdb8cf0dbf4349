import { GraphQLError } from 'graphql';
import { AppError, DATABASE_UNAVAILABLE, mapAppError } from '../../../src/errors';
import { mapError } from '../../../src/gateway/error-mapping';

/** What node-postgres throws when PostgreSQL refuses the connection. */
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('the error mapping core (graphql-free: the admin CLI and the gateway both use it)', () => {
  it('gives one of our errors its status, detail and headers', () => {
    expect(mapAppError(new AppError('NOT_FOUND', 'No bill 9'))).toEqual({ code: 'NOT_FOUND', status: 404, detail: 'No bill 9', headers: {}, internal: false });
    expect(mapAppError(new AppError('UNAUTHENTICATED', 'Invalid key')).headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="bill-progress"' });
    expect(mapAppError(new AppError('RATE_LIMITED', 'slow down', { headers: { 'Retry-After': '5' } }))).toMatchObject({ status: 429, headers: { 'Retry-After': '5' } });
  });

  it('makes an unreachable database a 503 and masks anything else as an internal 500', () => {
    expect(mapAppError(refused())).toEqual({ code: 'SERVICE_UNAVAILABLE', status: 503, detail: DATABASE_UNAVAILABLE, headers: {}, internal: false });
    expect(mapAppError(new TypeError('x is undefined'))).toEqual({ code: 'INTERNAL_SERVER_ERROR', status: 500, detail: 'Internal server error', headers: {}, internal: true });
  });

  it('is what the gateway answers for the same error, thrown directly or wrapped by GraphQL', () => {
    for (const thrown of [new AppError('FORBIDDEN', 'pro only'), refused(), new TypeError('bug')]) {
      expect(mapError(thrown)).toEqual(mapAppError(thrown));
      expect(mapError(new GraphQLError(thrown.message, { path: ['bill'], originalError: thrown }))).toEqual(mapAppError(thrown));
    }
    // Apollo wraps what a plugin, the context or the executor throws, without a path
    const fromContext = new AppError('UNAUTHENTICATED', 'Invalid key');
    expect(mapError(new GraphQLError(`Context creation failed: ${fromContext.message}`, { originalError: fromContext }))).toEqual(mapAppError(fromContext));
  });

  it('hands graphql-js and Apollo the code and the HTTP status through extensions, as a GraphQLError would', () => {
    const wrapped = new GraphQLError('No bill 9', { path: ['bill'], originalError: new AppError('NOT_FOUND', 'No bill 9') });
    expect(wrapped.extensions).toMatchObject({ code: 'NOT_FOUND', http: { status: 404 } });
  });
});
