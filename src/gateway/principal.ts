import { AppError } from '../errors';
import type { ApiKeyService, AuthenticatedUser } from '../services/api-key.service';
import type { Credential } from './credential';

/** Who is calling: the account, its tier and the key it called with. */
export type Principal = AuthenticatedUser;

/**
 * The principal behind a credential; null for a request that presented none. A credential that
 * is presented but unknown or revoked is refused (401) before anything runs, and so is a
 * Free-tier user (403): the Free tier has no API access.
 */
export async function resolvePrincipal(apiKeys: Pick<ApiKeyService, 'authenticate'>, credential: Credential | null): Promise<Principal | null> {
  if (credential === null) return null;
  const user = await apiKeys.authenticate(credential.key);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked API key');
  if (user.tier === 'free') throw new AppError('FORBIDDEN', 'The free tier has no API access: upgrade to pilot or pro');
  return user;
}
