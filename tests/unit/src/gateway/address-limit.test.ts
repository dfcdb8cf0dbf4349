import { AppError } from '../../../../src/errors';
import { AddressLimiter, addressLimitHooks, countsAgainstAddress } from '../../../../src/gateway/address-limit';
import type { GatewayRequest } from '../../../../src/gateway/pipeline';

const user = { accountId: 1, email: 'a@example.com', tier: 'pilot' as const, credential: 'api-key' as const, keyId: 1, sessionId: null };
const request = (address: string): GatewayRequest => ({ credentials: { kind: 'http-headers', headers: {} }, requestId: 'r', clientAddress: address });

describe('the per-address limit', () => {
  let now = 0;
  const limiter = (perMinute: number, maxAddresses?: number) => new AddressLimiter({ perMinute, maxAddresses, now: () => now });
  beforeEach(() => {
    now = 1_000_000;
  });

  it('admits an address its allowance at once, then refuses it with 429, Retry-After and a detail', () => {
    const limit = limiter(3);
    for (let i = 0; i < 3; i++) {
      expect(limit.refusal('10.0.0.1')).toBeNull();
      limit.spend('10.0.0.1');
    }
    const error = limit.refusal('10.0.0.1');
    if (!error) throw new Error('expected a refusal');
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toBe('Too many requests without a valid API key, or failing, from this address: the limit is 3 a minute; retry in 20 s');
    expect((error.extensions.http as { headers: Map<string, string> }).headers.get('Retry-After')).toBe('20');
    // another address is not affected
    expect(limit.refusal('10.0.0.2')).toBeNull();
  });

  it('gives back one request every 60/limit seconds', () => {
    const limit = limiter(3);
    for (let i = 0; i < 3; i++) limit.spend('10.0.0.1');
    now += 19_000;
    expect(limit.refusal('10.0.0.1')).toBeInstanceOf(AppError);
    now += 1_000;
    expect(limit.refusal('10.0.0.1')).toBeNull();
  });

  it('is off at 0, and for a request whose address is unknown', () => {
    const off = limiter(0);
    for (let i = 0; i < 100; i++) off.spend('10.0.0.1');
    expect(off.refusal('10.0.0.1')).toBeNull();
    const on = limiter(1);
    on.spend(undefined);
    expect(on.refusal(undefined)).toBeNull();
    expect(on.size).toBe(0);
  });

  it('remembers at most maxAddresses, forgetting the least recently counted', () => {
    const limit = limiter(1, 2);
    limit.spend('a');
    limit.spend('b');
    limit.spend('a');
    limit.spend('c');
    expect(limit.size).toBe(2);
    expect(limit.refusal('b')).toBeNull(); // forgotten: a fresh allowance
    expect(limit.refusal('a')).toBeInstanceOf(AppError);
  });

  it('counts requests without an account and the client’s mistakes, never a success with a key, a 404 or a 429', () => {
    expect(countsAgainstAddress({ principal: null, status: 200 })).toBe(true);
    expect(countsAgainstAddress({ principal: null, status: 401 })).toBe(true);
    expect(countsAgainstAddress({ principal: user, status: 400 })).toBe(true);
    expect(countsAgainstAddress({ principal: user, status: 403 })).toBe(true);
    expect(countsAgainstAddress({ principal: user, status: 200 })).toBe(false);
    expect(countsAgainstAddress({ principal: user, status: 404 })).toBe(false);
    expect(countsAgainstAddress({ principal: user, status: 429 })).toBe(false);
    expect(countsAgainstAddress({ principal: null, status: 429 })).toBe(false);
    expect(countsAgainstAddress({ principal: user, status: 503 })).toBe(false);
  });

  it('counts every dashboard request (session cookie), as a key’s requests count against its daily calls; never a 429', () => {
    const dashboardUser = { ...user, credential: 'session' as const, keyId: null, sessionId: 7 };
    for (const status of [200, 403, 404, 503]) expect(countsAgainstAddress({ principal: dashboardUser, status })).toBe(true);
    expect(countsAgainstAddress({ principal: dashboardUser, status: 429 })).toBe(false);
  });

  it('counts a client mistake refused before the pipeline (405, 413, malformed JSON), not a 404 or a 503 there', () => {
    for (const status of [400, 405, 413]) expect(countsAgainstAddress({ principal: null, status, beforePipeline: true })).toBe(true);
    for (const status of [404, 429, 503]) expect(countsAgainstAddress({ principal: null, status, beforePipeline: true })).toBe(false);
  });

  it('works as gateway hooks: admit before the credential, count when settled', () => {
    const hooks = addressLimitHooks(limiter(2));
    for (let i = 0; i < 5; i++) hooks.settled!(request('10.0.0.9'), { principal: user, status: 200 });
    expect(() => hooks.admit!(request('10.0.0.9'))).not.toThrow();
    hooks.settled!(request('10.0.0.9'), { principal: null, status: 401 });
    hooks.settled!(request('10.0.0.9'), { principal: null, status: 401 });
    expect(() => hooks.admit!(request('10.0.0.9'))).toThrow(/the limit is 2 a minute/);
  });
});
