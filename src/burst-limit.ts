import type { GraphQLResolveInfo } from 'graphql';
import { getGraphQLRateLimiter, type Identity, Store } from 'graphql-rate-limit';
import { AppError } from './errors';

/**
 * Recent call times per (user, root field), forgotten once they fall out of the window:
 * graphql-rate-limit's own memory store never forgets, and its Redis store rewrites a JSON array
 * (not atomic); a short burst window needs neither persistence nor sharing to do its job.
 */
class ExpiringMemoryStore extends Store {
  private readonly calls = new Map<string, { timestamps: readonly number[]; expires: number }>();

  private key = (identity: Identity) => `${identity.contextIdentity}|${identity.fieldIdentity}`;

  setForIdentity(identity: Identity, timestamps: readonly number[], windowMs = 0): void {
    const now = Date.now();
    if (this.calls.size > 10_000) for (const [key, entry] of this.calls) if (entry.expires < now) this.calls.delete(key);
    this.calls.set(this.key(identity), { timestamps, expires: now + windowMs });
  }

  getForIdentity(identity: Identity): readonly number[] {
    const entry = this.calls.get(this.key(identity));
    return entry && entry.expires >= Date.now() ? entry.timestamps : [];
  }
}

export interface BurstLimitOptions {
  /** calls of one root field one user may make in the window; 0 turns the limit off */
  max: number;
  windowSeconds: number;
}

/**
 * A per-user burst limit on each root field (graphql-rate-limit), on top of the daily quotas:
 * it stops a client hammering one field in a tight loop long before the day's limit would.
 */
export class BurstLimiter {
  private readonly limiter = getGraphQLRateLimiter({
    identifyContext: (context: { user: { accountId: number } | null }) => String(context.user?.accountId ?? 'anonymous'),
    store: new ExpiringMemoryStore(),
  });

  constructor(private readonly options: BurstLimitOptions) {}

  async check(context: { user: { accountId: number } | null }, info: GraphQLResolveInfo, args: Record<string, unknown>): Promise<void> {
    if (!this.options.max || !context.user) return;
    const message = await this.limiter({ parent: undefined, args, context, info }, { max: this.options.max, window: `${this.options.windowSeconds}s` });
    if (message) {
      throw new AppError('RATE_LIMITED', `Too many ${info.fieldName} requests: at most ${this.options.max} every ${this.options.windowSeconds} seconds`, {
        headers: { 'Retry-After': String(this.options.windowSeconds) },
      });
    }
  }
}
