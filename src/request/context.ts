import { createLoaders, type Loaders } from './loaders';
import type { RequestQuota } from '../quota/request-quota';
import type { Services } from '../services/services';
import type { AuthenticatedUser } from '../common/authenticated-user';
import type { IssuedSession } from '../services/session.service';

/** What the dashboard's operations know of the browser request (sign-up, log-in, log-out, password change). */
export interface BrowserContext {
  clientAddress: string | undefined;
  /** sent from another site's page (see src/gateway/origin.ts): sign-up and log-in refuse it */
  crossSite: boolean;
  /** a new session for the browser to keep, or 'ended' for it to forget its cookie; the gateway writes it as Set-Cookie */
  sessionChange: IssuedSession | 'ended' | null;
}

/** What every resolver sees of its request; made by the gateway (src/gateway), whatever the door. */
export interface RequestContext {
  /** null when the request carried no credential (public fields only) */
  user: AuthenticatedUser | null;
  services: Services;
  loaders: Loaders;
  requestId: string;
  /** the user's daily limits; null without a user */
  quota: RequestQuota | null;
  /** the browser's side of a request to the GraphQL door; null on /api/v1 */
  browser: BrowserContext | null;
}

export function createRequestContext(services: Services, user: AuthenticatedUser | null, requestId: string, browser: BrowserContext | null = null): RequestContext {
  const quota = user ? services.quotas.forUser(user) : null;
  return { user, services, loaders: createLoaders(services, quota), requestId, quota, browser };
}
