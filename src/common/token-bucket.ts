/**
 * A token bucket: `perMinute` tokens, refilled evenly over the minute, so a client may spend its
 * minute at once and then one every 60/perMinute seconds.
 */
export interface Tokens {
  tokens: number;
  /** when `tokens` was counted (ms) */
  at: number;
}

const MINUTE_MS = 60_000;

/** `bucket` as of `now`, refilled up to `perMinute`; a bucket not seen yet is full. */
export function refilled(bucket: Tokens | undefined, perMinute: number, now: number): Tokens {
  if (!bucket) return { tokens: perMinute, at: now };
  return { tokens: Math.min(perMinute, bucket.tokens + ((now - bucket.at) * perMinute) / MINUTE_MS), at: now };
}

/** One bucket, spent a token at a time. */
export class TokenBucket {
  private bucket: Tokens | undefined;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Spends a token if there is one. */
  take(): boolean {
    const bucket = refilled(this.bucket, this.perMinute, this.now());
    this.bucket = bucket;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
