import type { DataSource } from 'typeorm';
import { AccountService } from './account.service';
import { ApiKeyService, AUTH_CACHE_MS, EMBEDDED_AUTH_CACHE_MS } from './api-key.service';

/**
 * Accounts and their API keys, wired together: a change to an account (tier, deletion) makes the
 * keys service forget the keys it has verified. The server gets them through createServices; the
 * admin CLI builds only these, so an account command loads none of the rest of the service.
 * `embedded`: the server owns the embedded database, so verified keys are trusted longer.
 */
export function createAccountServices(dataSource: DataSource, { embedded = false } = {}): { accounts: AccountService; apiKeys: ApiKeyService } {
  let apiKeys: ApiKeyService | undefined;
  const accounts = new AccountService(dataSource, () => apiKeys?.forgetVerified());
  apiKeys = new ApiKeyService(dataSource, accounts, Date.now, embedded ? EMBEDDED_AUTH_CACHE_MS : AUTH_CACHE_MS);
  return { accounts, apiKeys };
}
