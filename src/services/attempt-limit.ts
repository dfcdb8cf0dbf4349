import { AppError } from '../errors';
import type { Allowance, LoginFailureStore } from '../attempts/login-failure-store';

/**
 * Attempts counted over a sliding window in a shared store (src/attempts/login-failure-store.ts): the
 * log-in throttle's guesses and the sign-up limit's sign-ups. An attempt takes its place before any
 * work is done for it, in one atomic step of the store, so attempts arriving together are held to
 * the limit as surely as attempts arriving one by one.
 */
export class AttemptLimit {
  /**
   * Per key set with attempts in flight in this process: the last in line, how many wait, and
   * until when the store refused the set. Gone once the line is empty, so a refusal is remembered
   * only for the attempts that arrived together with it.
   */
  private readonly lines = new Map<string, Line>();

  constructor(
    readonly store: LoginFailureStore,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The attempt's place under every allowance (its name, to release it), or a 429 whose detail
   * `refusal` words from the minutes to wait, with Retry-After in seconds. Attempts on the same keys
   * take their turns in this process one at a time, and once the store refuses them the rest of
   * that line is refused from memory: a flood from one address costs the store a few round trips,
   * not one per request, and a request on other keys (a genuine log-in) is not queued behind it.
   * An attempt that comes once the line is empty asks the store again, so a place given back (a
   * sign-up the server could not serve) is seen at once, by every instance.
   */
  async take(allowances: Allowance[], refusal: (minutes: number) => string): Promise<string> {
    const keys = allowances.map((a) => a.key).join('\n');
    let line = this.lines.get(keys);
    if (!line) this.lines.set(keys, (line = { last: Promise.resolve(), waiting: 0, refusedUntil: 0 }));
    const own = line;
    own.waiting += 1;
    const turn = own.last.then(() => this.takeNow(own, allowances, refusal));
    own.last = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      own.waiting -= 1;
      if (own.waiting === 0 && this.lines.get(keys) === own) this.lines.delete(keys);
    }
  }

  private async takeNow(line: Line, allowances: Allowance[], refusal: (minutes: number) => string): Promise<string> {
    const now = this.now();
    if (line.refusedUntil > now) throw refused(line.refusedUntil - now, refusal);
    const reservation = await this.store.reserve(allowances, now, now - this.windowMs);
    if (reservation.granted) return reservation.attempt;
    line.refusedUntil = reservation.retryAt;
    throw refused(reservation.retryAt - now, refusal);
  }
}

interface Line {
  last: Promise<unknown>;
  waiting: number;
  refusedUntil: number;
}

function refused(waitMs: number, refusal: (minutes: number) => string): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError('RATE_LIMITED', refusal(Math.ceil(seconds / 60)), { headers: { 'Retry-After': String(seconds) } });
}

export interface SignUpLimitOptions {
  /** sign-ups allowed from one client address in a window; 0 turns the limit off */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_SIGN_UP_LIMIT: SignUpLimitOptions = { perAddress: 5, windowMs: 3600_000 };

/**
 * Sign-ups per client address over a sliding window, counted beside the log-in attempts (every
 * instance counts the same). Each sign-up costs a full scrypt whether or not the address is new,
 * so a sign-up counts whatever its outcome; one refused as malformed never reaches it.
 */
export class SignUpLimit {
  private readonly attempts: AttemptLimit;

  constructor(
    private readonly options: SignUpLimitOptions,
    store: LoginFailureStore,
    now: () => number = Date.now,
  ) {
    this.attempts = new AttemptLimit(store, options.windowMs, now);
  }

  /**
   * Takes the sign-up's place, or throws a 429 when the address has signed up its allowance lately;
   * an unknown address (a command, not a browser) is not limited. The answer gives the place back,
   * for a sign-up the server could not serve.
   */
  async admit(address: string | undefined): Promise<{ release(): Promise<void> }> {
    if (!address || !this.options.perAddress) return { release: async () => undefined };
    const { perAddress, windowMs } = this.options;
    const key = `signup:${address}`;
    const attempt = await this.attempts.take([{ key, limit: perAddress }], (minutes) => `Too many sign-ups from this address: the limit is ${perAddress} in ${windowMs / 60_000} minutes; try again in ${minutes} minute(s)`);
    return { release: () => this.attempts.store.release(key, attempt) };
  }
}
