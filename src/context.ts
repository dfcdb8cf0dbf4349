import { createLoaders, type Loaders } from './loaders';
import type { RequestQuota } from './quota/request-quota';
import type { Services } from './services';
import type { AuthenticatedUser } from './services/api-key.service';

/** What every resolver sees of its request; made by the gateway (src/gateway), whatever the door. */
export interface RequestContext {
  /** null when the request carried no credential (public fields only) */
  user: AuthenticatedUser | null;
  services: Services;
  loaders: Loaders;
  requestId: string;
  /** the user's daily limits; null without a user */
  quota: RequestQuota | null;
}

export function createRequestContext(services: Services, user: AuthenticatedUser | null, requestId: string): RequestContext {
  const quota = user ? services.quotas.forUser(user) : null;
  return { user, services, loaders: createLoaders(services, quota), requestId, quota };
}
