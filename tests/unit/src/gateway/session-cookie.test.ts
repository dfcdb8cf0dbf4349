import { isCrossSite } from '../../../../src/gateway/origin';
import { clearedSessionCookieHeader, readSessionCookie, sessionCookieHeader } from '../../../../src/gateway/session-cookie';

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site, with an expiry; Secure only over HTTPS', () => {
    const expires = new Date('2026-12-01T00:00:00Z');
    expect(sessionCookieHeader('tok', expires, false)).toBe('bp_session=tok; Path=/; Expires=Tue, 01 Dec 2026 00:00:00 GMT; HttpOnly; SameSite=Lax');
    expect(sessionCookieHeader('tok', expires, true)).toMatch(/; Secure$/);
    expect(clearedSessionCookieHeader(true)).toBe('bp_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax; Secure');
  });

  it('is read from among other cookies', () => {
    expect(readSessionCookie('a=1; bp_session=abc; b=2')).toBe('abc');
    expect(readSessionCookie('a=1')).toBeNull();
    expect(readSessionCookie(undefined)).toBeNull();
    expect(readSessionCookie('bp_session=')).toBeNull();
  });
});

describe('isCrossSite', () => {
  it('is true when Origin names another host, or is "null", or Fetch Metadata says cross-site', () => {
    expect(isCrossSite({ origin: 'https://evil.example' }, 'app.example', true)).toBe(true);
    expect(isCrossSite({ origin: 'null' }, 'app.example', true)).toBe(true);
    expect(isCrossSite({ 'sec-fetch-site': 'cross-site' }, 'app.example', true)).toBe(true);
  });

  it('is false for the same host (ports included) and for requests without either header', () => {
    expect(isCrossSite({ origin: 'http://localhost:4000', 'sec-fetch-site': 'same-origin' }, 'localhost:4000', false)).toBe(false);
    expect(isCrossSite({ origin: 'http://localhost:4001' }, 'localhost:4000', false)).toBe(true);
    expect(isCrossSite({}, 'app.example', true)).toBe(false);
  });
});
