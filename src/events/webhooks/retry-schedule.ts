/** The waits after each failed attempt (issue 10): 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h; then the delivery has failed. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000] as const;
/** The first attempt and one per retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Each wait is spread by up to this share either way, so a receiver that was down is not hit by every retry at once. */
export const JITTER = 0.1;
/** An endpoint whose every attempt has failed for this long is disabled (its owner may re-enable it). */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3_600_000;

/** How long to wait after attempt number `attemptsMade` failed; null when that was the last. */
export function retryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + JITTER * (2 * random() - 1)));
}
