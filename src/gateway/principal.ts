import { AppError } from '../errors';
import type { AuthenticatedUser } from '../common/authenticated-user';
import type { ApiKeyService } from '../services/api-key.service';
import type { SessionService } from '../services/session.service';
import type { Credential } from './credential';

/** Who is calling: the account, its tier and the key or session it called with. */
export type Principal = AuthenticatedUser;

export interface Authenticators {
  apiKeys: Pick<ApiKeyService, 'authenticate'>;
  sessions: Pick<SessionService, 'authenticate'>;
}

/**
 * The principal behind a credential; null for a request that presented none. An API key that is
 * presented but unknown or revoked is refused (401) before anything runs, and so is a Free-tier
 * user's key (403): the Free tier has no API access. A session cookie that has ended (expired,
 * idle, logged out elsewhere) is as good as none: the dashboard then shows its log-in page.
 * Every tier may use the dashboard.
 */
export async function resolvePrincipal({ apiKeys, sessions }: Authenticators, credential: Credential | null): Promise<Principal | null> {
  if (credential === null) return null;
  if (credential.kind === 'session') return sessions.authenticate(credential.token);
  const user = await apiKeys.authenticate(credential.key);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked API key');
  if (user.tier === 'free') throw new AppError('FORBIDDEN', 'The free tier has no API access: upgrade to pilot or pro');
  return user;
}
