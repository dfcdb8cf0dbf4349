import { MemoryLoginFailureStore, type LoginFailureStore } from '../attempts/login-failure-store';
import { AttemptLimit } from './attempt-limit';

export interface LoginThrottleOptions {
  /** password checks allowed per account from one client address in a window, successful ones aside */
  perAccount: number;
  /** password checks allowed per client address in a window, successful ones aside */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = { perAccount: 10, perAddress: 50, windowMs: 15 * 60_000 };

/** A password check that has its place in the throttle: a failure unless it is declared a success. */
export interface LoginAttempt {
  /** The password was right: the account's failures from this address are forgotten, and this attempt leaves the address's count. */
  succeeded(): Promise<void>;
}

/**
 * Limits password guessing: attempts are counted per account and address together, and per client
 * address (whatever the account), over a sliding window; past either limit, log-ins for that
 * account from that address, or any from that address, are refused until the oldest attempt leaves
 * the window. Each attempt takes its place before its password is checked, in one atomic step of
 * the store, so 40 guesses sent at once get the same 10 checks as 40 sent one by one; an attempt
 * that proves right gives its place back (the account's place with all its failures, the address's
 * with its own), so in the end only failures count, and an honest user behind a busy address is
 * not locked out by the log-ins that succeed there. Log-ins still in flight count.
 *
 * An account is never locked as a whole: a stranger's failures from their address do not refuse
 * its owner at another, while no one address may guess at an account (or at many) for long. The
 * attempts live in a store beside the quotas (the database, or Redis), so every instance counts the
 * same ones and a restart forgets none.
 */
export class LoginThrottle {
  private readonly attempts: AttemptLimit;

  constructor(
    private readonly options: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE,
    store: LoginFailureStore = new MemoryLoginFailureStore(),
    now: () => number = Date.now,
  ) {
    this.attempts = new AttemptLimit(store, options.windowMs, now);
  }

  /** Takes the attempt's place, or throws a 429 when the account has failed too often lately from this address, or the address has. */
  async admit(email: string, address: string | undefined): Promise<LoginAttempt> {
    // the account's attempts from this address (from anywhere when the address is unknown), then the address's
    const accountKey = address ? `account:${email}|${address}` : `account:${email}`;
    const allowances = [{ key: accountKey, limit: this.options.perAccount }];
    if (address) allowances.push({ key: `address:${address}`, limit: this.options.perAddress });
    const attempt = await this.attempts.take(allowances, (minutes) => `Too many failed log-ins: try again in ${minutes} minute(s)`);
    const { store } = this.attempts;
    return {
      // the address keeps its other failures: one right password must not unlock guessing at other accounts
      succeeded: async () => {
        await store.clear(accountKey);
        if (address) await store.release(`address:${address}`, attempt);
      },
    };
  }
}
