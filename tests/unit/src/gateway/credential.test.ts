import { AppError } from '../../../../src/errors';
import { readCredential } from '../../../../src/gateway/credential';

const fromHeaders = (headers: Record<string, string | string[]>) => readCredential({ kind: 'http-headers', headers });

describe('readCredential from HTTP headers', () => {
  it('reads a bearer token and an X-API-Key header', () => {
    expect(fromHeaders({ authorization: 'Bearer bp_1234abcd_secret' })).toEqual({ kind: 'api-key', key: 'bp_1234abcd_secret' });
    expect(fromHeaders({ authorization: 'bearer   bp_x  ' })).toEqual({ kind: 'api-key', key: 'bp_x' });
    expect(fromHeaders({ 'x-api-key': ' bp_y ' })).toEqual({ kind: 'api-key', key: 'bp_y' });
  });

  it('is null when no credential is presented', () => {
    expect(fromHeaders({ accept: 'application/json' })).toBeNull();
  });

  it('lets X-API-Key win over a proxy’s Basic credentials, and refuses Basic alone', () => {
    expect(fromHeaders({ authorization: 'Basic dXNlcjpwdw==', 'x-api-key': 'bp_z' })).toEqual({ kind: 'api-key', key: 'bp_z' });
    expect(() => fromHeaders({ authorization: 'Basic dXNlcjpwdw==' })).toThrow(AppError);
    expect(() => fromHeaders({ authorization: 'Basic dXNlcjpwdw==' })).toThrow('The Authorization header must be "Bearer <API key>"');
  });

  it('takes the first of repeated headers', () => {
    expect(fromHeaders({ 'x-api-key': ['bp_first', 'bp_second'] })).toEqual({ kind: 'api-key', key: 'bp_first' });
  });
});
