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

describe('the connection_init payload (WebSocket door)', () => {
  const read = (payload: Record<string, unknown> | null | undefined) => readCredential({ kind: 'connection-init', payload });

  it('reads authorization or x-api-key, in any case, as the headers of the same names', () => {
    expect(read({ authorization: 'Bearer bp_1' })).toEqual({ kind: 'api-key', key: 'bp_1' });
    expect(read({ 'X-API-Key': 'bp_2' })).toEqual({ kind: 'api-key', key: 'bp_2' });
    expect(read({ other: 'x' })).toBeNull();
    expect(read(undefined)).toBeNull();
  });

  it('refuses a credential that is not a string, and an Authorization of another scheme alone', () => {
    expect(() => read({ authorization: 42 })).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    expect(() => read({ authorization: 'Basic abc' })).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
  });
});
