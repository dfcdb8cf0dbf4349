import { BurstLimiter } from '../../../../src/quota/burst-limit';
import type { AppError } from '../../../../src/errors';

const refusal = async (admission: Promise<void>): Promise<AppError> => {
  try {
    await admission;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('was admitted');
};
const headersOf = (error: AppError) => Object.fromEntries((error.extensions.http as { headers: Map<string, string> }).headers);

describe('BurstLimiter', () => {
  const T0 = 1_800_000_000_000;
  const at = (ms: number) => jest.setSystemTime(T0 + ms);
  beforeEach(() => jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('admits up to max calls of a field per window, per account and field, and frees them as they leave the window', async () => {
    const limiter = new BurstLimiter({ max: 3, windowSeconds: 10 });
    await limiter.admit(1, new Map([['me', 2]]));
    at(1000);
    await limiter.admit(1, new Map([['me', 1]]));
    at(2000);
    await expect(limiter.admit(1, new Map([['me', 1]]))).rejects.toThrow();
    await limiter.admit(2, new Map([['me', 3]])); // another account
    await limiter.admit(1, new Map([['sessions', 3]])); // another field
    at(10_001);
    await limiter.admit(1, new Map([['me', 2]])); // the first two left the window
  });

  it('refuses a request as a whole: a refused request records no call of any of its fields', async () => {
    const limiter = new BurstLimiter({ max: 3, windowSeconds: 10 });
    await limiter.admit(1, new Map([['me', 3]]));
    await expect(limiter.admit(1, new Map([['sessions', 1], ['me', 1]]))).rejects.toThrow();
    await limiter.admit(1, new Map([['sessions', 3]]));
  });

  it('records nothing of a refused request of one field either: the calls it held do not count against the next', async () => {
    const limiter = new BurstLimiter({ max: 3, windowSeconds: 10 });
    await limiter.admit(1, new Map([['me', 2]]));
    await expect(limiter.admit(1, new Map([['me', 2]]))).rejects.toThrow();
    await limiter.admit(1, new Map([['me', 1]]));
    await expect(limiter.admit(1, new Map([['me', 1]]))).rejects.toThrow();
  });

  it('admits concurrent requests one after another: 10 at once against a limit of 3 let exactly 3 through', async () => {
    const limiter = new BurstLimiter({ max: 3, windowSeconds: 10 });
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => limiter.admit(1, new Map([['me', 1]]))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
  });

  it('answers 429 naming the burst limit, with its size, 0 remaining and when the window frees room', async () => {
    const limiter = new BurstLimiter({ max: 3, windowSeconds: 10 });
    await limiter.admit(1, new Map([['me', 3]]));
    at(4000);
    const error = await refusal(limiter.admit(1, new Map([['me', 1]])));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', message: 'Burst limit reached: at most 3 calls of the same operation every 10 seconds; retry in 6 seconds' });
    expect(headersOf(error)).toMatchObject({ 'X-RateLimit-Limit': '3', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String((T0 + 10_000) / 1000), 'Retry-After': '6' });
  });

  it('refuses a request holding more copies than the limit at all', async () => {
    const limiter = new BurstLimiter({ max: 300, windowSeconds: 10 });
    expect((await refusal(limiter.admit(1, new Map([['me', 350]])))).message).toBe('Burst limit exceeded: one request may hold at most 300 calls of the same operation (it held 350)');
  });

  it('is off with max 0', async () => {
    await new BurstLimiter({ max: 0, windowSeconds: 10 }).admit(1, new Map([['me', 10_000]]));
  });
});
