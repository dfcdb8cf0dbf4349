import { isCrossSite } from '../../../../src/gateway/origin';

// The dashboard's CSRF check: a session cookie is sent whatever page asks, so only its own pages may use it.
describe('isCrossSite', () => {
  it('is not cross-site without Origin and Fetch Metadata (curl), nor from the page’s own origin', () => {
    expect(isCrossSite({}, 'bills.example.com', true)).toBe(false);
    expect(isCrossSite({ origin: 'https://bills.example.com' }, 'bills.example.com', true)).toBe(false);
    expect(isCrossSite({ origin: 'http://localhost:4000', 'sec-fetch-site': 'same-origin' }, 'localhost:4000', false)).toBe(false);
  });

  it('is cross-site from another host or port, from "null" or a malformed Origin, or when Fetch Metadata says so', () => {
    expect(isCrossSite({ origin: 'https://evil.example' }, 'bills.example.com', true)).toBe(true);
    expect(isCrossSite({ origin: 'http://localhost:4001' }, 'localhost:4000', false)).toBe(true);
    expect(isCrossSite({ origin: 'null' }, 'bills.example.com', true)).toBe(true);
    expect(isCrossSite({ origin: '::not a url' }, 'bills.example.com', true)).toBe(true);
    expect(isCrossSite({ 'sec-fetch-site': 'cross-site' }, 'bills.example.com', true)).toBe(true);
  });

  it('is cross-site from the same host under the other scheme: the scheme is the request’s own (X-Forwarded-Proto behind a trusted proxy)', () => {
    expect(isCrossSite({ origin: 'http://bills.example.com' }, 'bills.example.com', true)).toBe(true);
    expect(isCrossSite({ origin: 'https://localhost:4000' }, 'localhost:4000', false)).toBe(true);
    expect(isCrossSite({ origin: 'http://localhost:4000' }, 'localhost:4000', false)).toBe(false);
    expect(isCrossSite({ origin: 'https://bills.example.com' }, 'bills.example.com', true)).toBe(false);
  });
});
