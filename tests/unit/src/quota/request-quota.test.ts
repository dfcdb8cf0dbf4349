import type { QuotaStore } from '../../../../src/quota/quota-store';
import { RequestQuota } from '../../../../src/quota/request-quota';
import { type QuotaKind, TIER_LIMITS } from '../../../../src/quota/tier-limits';

/** Daily counters in memory, as the store's contract says: never past the limit. */
function memoryStore(): QuotaStore & { used: (kind: QuotaKind) => number } {
  const counts = new Map<string, number>();
  const key = (accountId: number, day: string, kind: QuotaKind) => `${accountId} ${day} ${kind}`;
  return {
    async take(accountId, day, kind, amount, limit) {
      const used = counts.get(key(accountId, day, kind)) ?? 0;
      const granted = Math.min(amount, Math.max(0, limit - used));
      counts.set(key(accountId, day, kind), used + granted);
      return { granted, used: used + granted };
    },
    async refund(accountId, day, kind, amount) {
      counts.set(key(accountId, day, kind), (counts.get(key(accountId, day, kind)) ?? 0) - amount);
    },
    used: (kind) => counts.get(key(1, '2021-12-31', kind)) ?? 0,
  };
}

const NOW = new Date('2021-12-31T12:00:00Z');

describe('charging a kept answer again (RequestQuota.requireAll)', () => {
  it('takes every charge when each limit allows it', async () => {
    const store = memoryStore();
    const quota = new RequestQuota(store, 1, 'pilot', NOW);
    await quota.requireAll([
      ['calls', 1],
      ['predictions', 3],
    ]);
    expect([store.used('calls'), store.used('predictions')]).toEqual([1, 3]);
  });

  it('takes nothing when a later limit falls short, and its 429 names that limit', async () => {
    const store = memoryStore();
    const limit = TIER_LIMITS.pilot.predictions;
    await new RequestQuota(store, 1, 'pilot', NOW).requireAll([['predictions', limit - 1]]);

    const quota = new RequestQuota(store, 1, 'pilot', NOW);
    const refusal = quota.requireAll([
      ['calls', 1],
      ['predictions', 2],
    ]);
    await expect(refusal).rejects.toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining(`allows ${limit.toLocaleString('en-GB')} a day`) });
    expect([store.used('calls'), store.used('predictions')]).toEqual([0, limit - 1]);
    expect([...quota.charged().values()].every((units) => units === 0)).toBe(true);
  });
});

describe('a request whose response is settled', () => {
  it('takes nothing more: a field still running after graphql-js answered can show nothing', async () => {
    const store = memoryStore();
    const quota = new RequestQuota(store, 1, 'pilot', NOW);
    await quota.require('predictions');
    quota.ledger.charged('bill 1', 'predictions', 1, ['a']);
    await quota.settleCharges(null);
    expect(store.used('predictions')).toBe(0);
    // a sibling field's loader, finishing late, charges its nowcasts
    const late = await quota.chargeEach('predictions', ['nowcast', 'nowcast']);
    expect(late.every((r) => r instanceof Error)).toBe(true);
    expect(store.used('predictions')).toBe(0);
  });
});
