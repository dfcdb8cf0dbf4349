import { AppError } from './errors';

export interface BurstLimitOptions {
  /** calls of one root field one user may make in the window; 0 turns the limit off */
  max: number;
  windowSeconds: number;
}

/** Keys kept before expired ones are swept: bounds memory under many users. */
const SWEEP_AT = 10_000;

/**
 * A per-user burst limit on each root field, on top of the daily quotas: it stops a client
 * hammering one field in a tight loop long before the day's limit would. A sliding window of
 * call times per (user, field), forgotten once they leave the window. A request is admitted or
 * refused as a whole, counting every copy of a field (aliases included) before any of them runs,
 * so 350 aliased copies cannot pass a limit of 300.
 */
export class BurstLimiter {
  private readonly calls = new Map<string, number[]>();

  constructor(readonly options: BurstLimitOptions) {}

  private recent(key: string, now: number): number[] {
    const since = now - this.options.windowSeconds * 1000;
    const times = this.calls.get(key) ?? [];
    let expired = 0;
    while (expired < times.length && times[expired] <= since) expired++;
    return expired ? times.slice(expired) : times;
  }

  /**
   * Records `copies` calls of each field for the account, or none and a 429 naming the limit
   * when any field would go past it. `now` is milliseconds (tests pass their own).
   */
  admit(accountId: number, copies: ReadonlyMap<string, number>, now = Date.now()): void {
    const { max, windowSeconds } = this.options;
    if (!max) return;
    const checked: [string, number[], number][] = [];
    for (const [field, count] of copies) {
      const key = `${accountId}|${field}`;
      const times = this.recent(key, now);
      if (times.length + count > max) throw this.refused(times, count, now);
      checked.push([key, times, count]);
    }
    if (this.calls.size > SWEEP_AT) for (const [key] of this.calls) if (!this.recent(key, now).length) this.calls.delete(key);
    for (const [key, times, count] of checked) this.calls.set(key, [...times, ...Array<number>(count).fill(now)]);
  }

  /** 429: when enough earlier calls leave the window for this request to fit, or a whole window when it never can. */
  private refused(times: number[], count: number, now: number): AppError {
    const { max, windowSeconds } = this.options;
    const window = windowSeconds * 1000;
    const freedBy = count > max ? now + window : times[times.length + count - max - 1] + window;
    const retryAfter = Math.max(1, Math.ceil((freedBy - now) / 1000));
    const detail =
      count > max
        ? `Burst limit exceeded: one request may hold at most ${max} calls of the same operation (it held ${count})`
        : `Burst limit reached: at most ${max} calls of the same operation every ${windowSeconds} seconds; retry in ${retryAfter} seconds`;
    return new AppError('RATE_LIMITED', detail, {
      headers: {
        'Retry-After': String(retryAfter),
        'X-RateLimit-Limit': String(max),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(Math.ceil(freedBy / 1000)),
        RateLimit: `"burst";r=0;t=${retryAfter}`,
      },
    });
  }
}
