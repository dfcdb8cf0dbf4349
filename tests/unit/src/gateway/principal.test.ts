import type { Tier } from '../../../../src/db/entities/account.entity';
import { resolvePrincipal } from '../../../../src/gateway/principal';

const user = (tier: Tier) => ({ accountId: 7, email: 'a@example.com', tier, credential: 'api-key' as const, keyId: 3, sessionId: null });
const sessionUser = (tier: Tier) => ({ accountId: 8, email: 'b@example.com', tier, credential: 'session' as const, keyId: null, sessionId: 5 });
const keys = (known: Record<string, Tier>, sessions: Record<string, Tier> = {}) => ({
  apiKeys: { authenticate: async (key: string) => (known[key] ? user(known[key]) : null) },
  sessions: { authenticate: async (token: string) => (sessions[token] ? sessionUser(sessions[token]) : null) },
});

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

  it('lets a Free-tier user in through a dashboard session: the website is every tier’s', async () => {
    await expect(resolvePrincipal(keys({}, { tok: 'free' }), { kind: 'session', token: 'tok' })).resolves.toEqual(sessionUser('free'));
  });

  it('treats an ended session as no credential (the dashboard then asks to log in) rather than refusing the request', async () => {
    await expect(resolvePrincipal(keys({}, {}), { kind: 'session', token: 'gone' })).resolves.toBeNull();
  });
});
