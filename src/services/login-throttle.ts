import { AppError } from '../errors';
import { type LoginFailureStore, MemoryLoginFailureStore } from '../quota/login-failure-store';

export interface LoginThrottleOptions {
  /** failed log-ins allowed per account from one client address in a window */
  perAccount: number;
  /** failed log-ins allowed per client address in a window */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = { perAccount: 10, perAddress: 50, windowMs: 15 * 60_000 };

/**
 * Limits password guessing: failed log-ins are counted per account and address together, and per
 * client address (whatever the account), over a sliding window; past either limit, log-ins for that
 * account from that address, or any from that address, are refused until the oldest failure leaves
 * the window. An account is never locked as a whole: a stranger's failures from their address do
 * not refuse its owner at another, while no one address may guess at an account (or at many) for
 * long. The
 * failures live in a store beside the quotas (the database, or Redis), so every instance counts
 * the same failures and a restart forgets none. A check and its failure are two steps: guesses
 * racing on several instances may pass the limit by the number in flight, each paying its scrypt.
 */
export class LoginThrottle {
  constructor(
    private readonly options: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE,
    private readonly store: LoginFailureStore = new MemoryLoginFailureStore(),
    private readonly now: () => number = Date.now,
  ) {}

  /** The account's failures from this address (from anywhere when the address is unknown), then the address's. */
  private keys = (email: string, address: string | undefined) => (address ? [`account:${email}|${address}`, `address:${address}`] : [`account:${email}`]);

  /** Throws a 429 when the account has failed too often lately from this address, or the address has. */
  async admit(email: string, address: string | undefined): Promise<void> {
    const now = this.now();
    const since = now - this.options.windowMs;
    const [accountKey, addressKey] = this.keys(email, address);
    const checks: [string, number][] = [[accountKey, this.options.perAccount]];
    if (addressKey) checks.push([addressKey, this.options.perAddress]);
    const recent = await Promise.all(checks.map(([key]) => this.store.recent(key, since)));
    for (const [i, [, limit]] of checks.entries()) {
      const times = recent[i];
      if (times.length >= limit) {
        const retryAt = times[times.length - limit] + this.options.windowMs;
        const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
        throw new AppError('RATE_LIMITED', `Too many failed log-ins: try again in ${Math.ceil(seconds / 60)} minute(s)`, { headers: { 'Retry-After': String(seconds) } });
      }
    }
  }

  async failed(email: string, address: string | undefined): Promise<void> {
    const now = this.now();
    await this.store.add(this.keys(email, address), now, now - this.options.windowMs);
  }

  /** A successful log-in clears the account's failures from this address (not the address's: one right password must not unlock guessing at others). */
  async succeeded(email: string, address: string | undefined): Promise<void> {
    await this.store.clear(this.keys(email, address)[0]);
  }
}
