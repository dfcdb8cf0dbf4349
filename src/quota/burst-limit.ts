import type { GraphQLResolveInfo } from 'graphql';
import { getGraphQLRateLimiter, type Identity, Store } from 'graphql-rate-limit';
import { AppError } from '../errors';

export interface BurstLimitOptions {
  /** calls of one root field one user may make in the window; 0 turns the limit off */
  max: number;
  windowSeconds: number;
}

/** Keys kept before expired ones are swept: bounds memory under many users. */
const SWEEP_AT = 10_000;

/**
 * Recent call times per (user, root field), forgotten once they leave the window:
 * graphql-rate-limit's own memory store never forgets, and its Redis store rewrites a JSON array
 * (not atomic); a 10-second window needs neither persistence nor sharing to do its job.
 */
class ExpiringMemoryStore extends Store {
  private readonly calls = new Map<string, { timestamps: readonly number[]; expires: number }>();

  static key = (identity: Identity) => `${identity.contextIdentity}|${identity.fieldIdentity}`;

  setForIdentity(identity: Identity, timestamps: readonly number[], windowMs = 0): void {
    const now = Date.now();
    if (this.calls.size > SWEEP_AT) for (const [key, entry] of this.calls) if (entry.expires < now) this.calls.delete(key);
    this.calls.set(ExpiringMemoryStore.key(identity), { timestamps, expires: now + windowMs });
  }

  getForIdentity(identity: Identity): readonly number[] {
    const entry = this.calls.get(ExpiringMemoryStore.key(identity));
    return entry && entry.expires >= Date.now() ? entry.timestamps : [];
  }
}

/** graphql-rate-limit identifies a call by its context and `info.fieldName`; the rest of the info is not read. */
const fieldInfo = (fieldName: string) => ({ fieldName }) as GraphQLResolveInfo;

/**
 * A per-user burst limit on each root field (graphql-rate-limit), on top of the daily quotas: it
 * stops a client hammering one field in a tight loop long before the day's limit would. A request
 * is admitted or refused as a whole: every copy of a field (aliases included) is counted before
 * any of them runs, so 350 aliased copies cannot pass a limit of 300, and a refused request
 * records no call of any of its fields.
 */
export class BurstLimiter {
  private readonly store = new ExpiringMemoryStore();
  private readonly limiter = getGraphQLRateLimiter({ identifyContext: (accountId: number) => String(accountId), store: this.store });
  /** admissions one after another: a check and its recording must not interleave with another request's */
  private admitted: Promise<void> = Promise.resolve();

  /** the window as graphql-rate-limit reads it */
  private readonly window: string;

  constructor(readonly options: BurstLimitOptions) {
    this.window = `${options.windowSeconds}s`;
  }

  /** Records `copies` calls of each field for the account, or none and a 429 naming the limit when any field would go past it. */
  admit(accountId: number, copies: ReadonlyMap<string, number>): Promise<void> {
    if (!this.options.max) return Promise.resolve();
    const admission = this.admitted.then(() => this.admitNow(accountId, copies));
    this.admitted = admission.catch(() => undefined);
    return admission;
  }

  private async admitNow(accountId: number, copies: ReadonlyMap<string, number>): Promise<void> {
    const { max } = this.options;
    // the limiter counts a call as many times as its `arrayLengthField` argument is long; `uncountRejected`: a refused call records nothing
    const call = (field: string, count: number, readOnly: boolean) =>
      this.limiter({ parent: undefined, args: { copies: { length: count } }, context: accountId, info: fieldInfo(field) }, { max, window: this.window, arrayLengthField: 'copies', readOnly, uncountRejected: true });
    // one field (most requests): checked and recorded in one call, since a refused call records nothing
    if (copies.size === 1) {
      const [[field, count]] = copies;
      if (await call(field, count, false)) throw this.refused(accountId, field, count);
      return;
    }
    for (const [field, count] of copies) if (await call(field, count, true)) throw this.refused(accountId, field, count);
    for (const [field, count] of copies) await call(field, count, false);
  }

  /** 429: when enough earlier calls leave the window for this request to fit, or a whole window when it never can. */
  private refused(accountId: number, field: string, count: number): AppError {
    const { max, windowSeconds } = this.options;
    const now = Date.now();
    const window = windowSeconds * 1000;
    const times = this.store.getForIdentity({ contextIdentity: String(accountId), fieldIdentity: field }).filter((t) => t + window > now);
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
