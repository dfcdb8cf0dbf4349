import { AppError } from '../errors';

export interface LoginThrottleOptions {
  /** failed log-ins allowed per account in a window */
  perAccount: number;
  /** failed log-ins allowed per client address in a window */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = { perAccount: 10, perAddress: 50, windowMs: 15 * 60_000 };

/** Failure times kept per key at most, and keys at most (the oldest forgotten first). */
const MAX_KEYS = 100_000;

/**
 * Limits password guessing: failed log-ins are counted per account (whatever the address) and per
 * client address (whatever the account) over a sliding window; past either limit, log-ins for that
 * account or from that address are refused until the oldest failure leaves the window. Kept in
 * memory: a restart forgets them, which costs an attacker a restart they cannot cause.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly options: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.options.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (times.length) this.failures.set(key, times);
    else this.failures.delete(key);
    return times;
  }

  /** Throws a 429 when the account or the address has failed too often lately. */
  admit(email: string, address: string | undefined): void {
    const checks: [string, number][] = [[`account:${email}`, this.options.perAccount]];
    if (address) checks.push([`address:${address}`, this.options.perAddress]);
    for (const [key, limit] of checks) {
      const times = this.recent(key);
      if (times.length >= limit) {
        const retryAt = times[times.length - limit] + this.options.windowMs;
        const seconds = Math.max(1, Math.ceil((retryAt - this.now()) / 1000));
        throw new AppError('RATE_LIMITED', `Too many failed log-ins: try again in ${Math.ceil(seconds / 60)} minute(s)`, { headers: { 'Retry-After': String(seconds) } });
      }
    }
  }

  failed(email: string, address: string | undefined): void {
    for (const key of [`account:${email}`, ...(address ? [`address:${address}`] : [])]) {
      const times = this.recent(key);
      times.push(this.now());
      this.failures.delete(key);
      this.failures.set(key, times);
      if (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
    }
  }

  /** A successful log-in clears the account's failures (not the address's: one right password must not unlock guessing at others). */
  succeeded(email: string): void {
    this.failures.delete(`account:${email}`);
  }
}
