import { AppError } from '../errors';
import type { ApiKeyService } from '../services/api-key.service';
import { readCredential } from './credential';
import type { GatewayHooks, GatewayOutcome, GatewayRequest } from './pipeline';
import { keepWithin } from '../common/bounded-map';
import { refilled, type Tokens } from '../common/token-bucket';

export interface AddressLimitOptions {
  /** requests without a valid key, and failing requests, one address may make per minute; 0 turns the limit off */
  perMinute: number;
  /** addresses remembered at most (the oldest are forgotten first) */
  maxAddresses?: number;
  now?: () => number;
}

const MINUTE_MS = 60_000;

/**
 * Limits, per client address, the requests that no API quota answers for: those without a valid
 * key (anonymous, unknown or revoked keys, Free-tier keys, the dashboard's session cookie) and
 * those that fail as the client's mistake (400, 401, 403, 405, 413, …; not 404, which a keyed
 * client meets in normal use, nor 429, which has limits of its own). A token bucket per address:
 * `perMinute` tokens, refilled evenly over the minute, so a client may spend its minute at once
 * and then one every 60/perMinute seconds. Requests with a valid key that succeed never count.
 *
 * Behind a reverse proxy every client shares the proxy's address (the app does not trust
 * X-Forwarded-For): raise the limit or turn it off there, and limit at the proxy.
 */
export class AddressLimiter {
  private readonly buckets = new Map<string, Tokens>();
  private readonly maxAddresses: number;
  private readonly now: () => number;

  constructor(private readonly options: AddressLimitOptions) {
    this.maxAddresses = options.maxAddresses ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  private refilled(address: string): Tokens {
    return refilled(this.buckets.get(address), this.options.perMinute, this.now());
  }

  /**
   * The 429 an address that has spent its allowance gets (Retry-After, and the X-RateLimit headers
   * of this limit: its size a minute, nothing remaining, when a request is allowed again), or null.
   * A map lookup: cheap enough to ask before anything is known of the caller.
   */
  refusal(address: string | undefined): AppError | null {
    if (!this.options.perMinute || !address) return null;
    const { tokens, at } = this.refilled(address);
    if (tokens >= 1) return null;
    const waitMs = ((1 - tokens) * MINUTE_MS) / this.options.perMinute;
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    return new AppError(
      'RATE_LIMITED',
      `Too many requests without a valid API key, or failing, from this address: the limit is ${this.options.perMinute} a minute; retry in ${retryAfter} s`,
      {
        headers: {
          'Retry-After': String(retryAfter),
          'X-RateLimit-Limit': String(this.options.perMinute),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(Math.ceil((at + waitMs) / 1000)),
        },
      },
    );
  }

  /** Counts one request against its address. */
  spend(address: string | undefined): void {
    if (!this.options.perMinute || !address) return;
    const bucket = this.refilled(address);
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    // re-inserted last: the map's order is least recently counted first
    keepWithin(this.buckets, address, bucket, this.maxAddresses, { refresh: true });
  }

  /** Addresses currently remembered (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }
}

/**
 * Whether a request counts against its address: no account behind it, a dashboard request, or the
 * client's mistake. A 429 never counts (without an account it is this limiter's own refusal), so a
 * client that keeps knocking still gets its allowance each minute.
 */
export function countsAgainstAddress(outcome: GatewayOutcome): boolean {
  if (outcome.status === 429) return false;
  // the website's requests charge no API calls (only the predictions they show): this is their
  // limit, as the daily calls are a key's
  if (outcome.principal?.credential === 'session') return true;
  // a request refused before any key was read (405, 413, malformed JSON) counts only as a mistake
  if (!outcome.principal && !outcome.beforePipeline) return true;
  return outcome.status >= 400 && outcome.status < 500 && outcome.status !== 404;
}

/**
 * The limiter as gateway hooks: checked before the key is looked up, counted when the request
 * ends. A request presenting a key verified moments ago is never refused by it, so a client
 * sharing an address (a NAT, a proxy) with a flood of forged keys keeps being served.
 */
export function addressLimitHooks(limiter: AddressLimiter, apiKeys?: Pick<ApiKeyService, 'isTrusted'>): GatewayHooks {
  const trusted = (request: GatewayRequest) => {
    try {
      const credential = readCredential(request.credentials);
      return Boolean(credential?.kind === 'api-key' && apiKeys?.isTrusted(credential.key));
    } catch {
      return false; // a malformed Authorization header: not a trusted caller
    }
  };
  return {
    admit: (request: GatewayRequest) => {
      // the address first: digesting the key to learn whether it is trusted costs more, and is
      // only needed for an address that has spent its allowance
      const refusal = limiter.refusal(request.clientAddress);
      if (refusal && !trusted(request)) throw refusal;
    },
    settled: (request: GatewayRequest, outcome: GatewayOutcome) => {
      if (countsAgainstAddress(outcome)) limiter.spend(request.clientAddress);
    },
  };
}
