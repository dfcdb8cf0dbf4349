import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from './errors';
import { createLoaders, type Loaders } from './loaders';
import type { RequestQuota } from './quota/request-quota';
import type { Services } from './services';
import type { AuthenticatedUser } from './services/api-key.service';

export interface RequestContext {
  /** null when the request carried no key (public fields only) */
  user: AuthenticatedUser | null;
  services: Services;
  loaders: Loaders;
  requestId: string;
  /** the user's daily limits; null without a user */
  quota: RequestQuota | null;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The API key a request presents: `Authorization: Bearer <key>` or `X-API-Key: <key>`; null when
 * none. An Authorization header of another scheme (a proxy's Basic credentials) yields to
 * X-API-Key when both are sent, and is refused when it is the only credential.
 */
export function presentedApiKey(headers: IncomingHttpHeaders): string | null {
  const authorization = header(headers, 'authorization');
  const apiKey = header(headers, 'x-api-key');
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
    if (apiKey === undefined) throw new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <API key>"');
  }
  if (apiKey !== undefined) return apiKey.trim();
  return null;
}

/**
 * Who is calling. A key that is presented but unknown or revoked is refused (401) before any
 * field runs, and so is a Free-tier user (403): the Free tier has no API access.
 */
export async function authenticateRequest(services: Services, headers: IncomingHttpHeaders): Promise<AuthenticatedUser | null> {
  const key = presentedApiKey(headers);
  if (key === null) return null;
  const user = await services.apiKeys.authenticate(key);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked API key');
  if (user.tier === 'free') throw new AppError('FORBIDDEN', 'The Free tier has no API access: upgrade to Pilot or Pro');
  return user;
}

export async function createRequestContext(services: Services, headers: IncomingHttpHeaders, requestId: string): Promise<RequestContext> {
  const user = await authenticateRequest(services, headers);
  const quota = user ? services.quotas.forUser(user) : null;
  return { user, services, loaders: createLoaders(services, quota), requestId, quota };
}
