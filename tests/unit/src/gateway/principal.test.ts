import type { Tier } from '../../../../entities/account.entity';
import { resolvePrincipal } from '../../../../src/gateway/principal';

const user = (tier: Tier) => ({ accountId: 7, email: 'a@example.com', tier, keyId: 3 });
const keys = (known: Record<string, Tier>) => ({ authenticate: async (key: string) => (known[key] ? user(known[key]) : null) });

describe('resolvePrincipal', () => {
  it('is null for a request without a credential', async () => {
    await expect(resolvePrincipal(keys({}), null)).resolves.toBeNull();
  });

  it('is the user, tier and key behind a valid key', async () => {
    await expect(resolvePrincipal(keys({ good: 'pro' }), { kind: 'api-key', key: 'good' })).resolves.toEqual(user('pro'));
  });

  it('refuses an unknown or revoked key with 401', async () => {
    await expect(resolvePrincipal(keys({}), { kind: 'api-key', key: 'nope' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'Invalid or revoked API key' });
  });

  it('refuses a Free-tier user with 403: the Free tier has no API access', async () => {
    await expect(resolvePrincipal(keys({ free: 'free' }), { kind: 'api-key', key: 'free' })).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });
});
