import type { Tier } from '../db/entities/account.entity';

export type QuotaKind = 'calls' | 'batches' | 'predictions';

/**
 * Daily limits per tier (specification section 8). "Unlimited" has a fair-use ceiling, so a
 * runaway client is still stopped and every response can say how much is left as a number.
 */
export const FAIR_USE_CEILING = 1_000_000;

export const TIER_LIMITS: Record<Tier, Record<QuotaKind, number>> = {
  // Free has no API access at all (src/gateway/principal.ts): its one prediction a day is the website's
  free: { calls: 0, batches: 0, predictions: 1 },
  pilot: { calls: 1_000, batches: 10, predictions: 100 },
  pro: { calls: FAIR_USE_CEILING, batches: 100, predictions: FAIR_USE_CEILING },
};

export const QUOTA_LABEL: Record<QuotaKind, string> = { calls: 'API call', batches: 'batch request', predictions: 'prediction' };
