import { BurstLimiter } from '../../../src/burst-limit';
import type { AppError } from '../../../src/errors';

const refusal = (fn: () => void): AppError => {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('was admitted');
};
const headersOf = (error: AppError) => Object.fromEntries((error.extensions.http as { headers: Map<string, string> }).headers);

describe('BurstLimiter', () => {
  const T0 = 1_800_000_000_000;

  it('admits up to max calls of a field per window, per account and field, and frees them as they leave the window', () => {
    const limiter = new BurstLimiter({ max: 3, windowSeconds: 10 });
    limiter.admit(1, new Map([['me', 2]]), T0);
    limiter.admit(1, new Map([['me', 1]]), T0 + 1000);
    expect(() => limiter.admit(1, new Map([['me', 1]]), T0 + 2000)).toThrow();
    limiter.admit(2, new Map([['me', 3]]), T0 + 2000); // another account
    limiter.admit(1, new Map([['sessions', 3]]), T0 + 2000); // another field
    limiter.admit(1, new Map([['me', 2]]), T0 + 10_001); // the first two left the window
  });

  it('refuses a request as a whole: a refused request records no call of any of its fields', () => {
    const limiter = new BurstLimiter({ max: 3, windowSeconds: 10 });
    limiter.admit(1, new Map([['me', 3]]), T0);
    expect(() => limiter.admit(1, new Map([['sessions', 1], ['me', 1]]), T0)).toThrow();
    limiter.admit(1, new Map([['sessions', 3]]), T0);
  });

  it('answers 429 naming the burst limit, with its size, 0 remaining and when the window frees room', () => {
    const limiter = new BurstLimiter({ max: 3, windowSeconds: 10 });
    limiter.admit(1, new Map([['me', 3]]), T0);
    const error = refusal(() => limiter.admit(1, new Map([['me', 1]]), T0 + 4000));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', message: 'Burst limit reached: at most 3 calls of the same operation every 10 seconds; retry in 6 seconds' });
    expect(headersOf(error)).toMatchObject({ 'X-RateLimit-Limit': '3', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String((T0 + 10_000) / 1000), 'Retry-After': '6' });
  });

  it('refuses a request holding more copies than the limit at all', () => {
    const limiter = new BurstLimiter({ max: 300, windowSeconds: 10 });
    expect(refusal(() => limiter.admit(1, new Map([['me', 350]]), T0)).message).toBe('Burst limit exceeded: one request may hold at most 300 calls of the same operation (it held 350)');
  });

  it('is off with max 0', () => {
    new BurstLimiter({ max: 0, windowSeconds: 10 }).admit(1, new Map([['me', 10_000]]), T0);
  });
});
