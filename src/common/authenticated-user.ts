import type { Tier } from '../vocabulary';

/**
 * Who a request is, as every layer that decides for it reads it: the gateway that admits it, the
 * quotas that charge it, the services that act for it. It lives below them all so that none
 * reaches up into another for it.
 */
export interface AuthenticatedUser {
  accountId: number;
  email: string;
  tier: Tier;
  /** how the caller proved who it is: an API key (the API) or a dashboard session cookie (the website) */
  credential: 'api-key' | 'session';
  /** the key it called with; null for a session */
  keyId: number | null;
  /** the session it called with; null for an API key */
  sessionId: number | null;
}
