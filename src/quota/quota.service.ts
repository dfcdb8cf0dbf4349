import type { DataSource } from 'typeorm';
import type { AuthenticatedUser } from '../services/api-key.service';
import { type QuotaStore, SqlQuotaStore } from './quota-store';
import { RedisQuotaStore } from './redis-quota-store';
import { WriteBehindQuotaStore } from './write-behind-quota-store';
import { RequestQuota } from './request-quota';

/**
 * Daily quotas. Counters in Redis when REDIS_URL is set (shared by instances); else on
 * PostgreSQL in its table, one atomic statement a take (shared by instances); else, on the
 * embedded database that one process owns, in memory written behind to the table.
 */
export class QuotaService {
  readonly store: QuotaStore;

  constructor(
    dataSource: DataSource,
    options: { redisUrl?: string; embedded: boolean },
    /** the real time: quotas run on UTC days, not on the service's (snapshot) today */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = options.redisUrl
      ? new RedisQuotaStore(options.redisUrl)
      : options.embedded
        ? new WriteBehindQuotaStore(dataSource)
        : new SqlQuotaStore(dataSource);
  }

  forUser(user: AuthenticatedUser): RequestQuota {
    return new RequestQuota(this.store, user.accountId, user.tier, this.now());
  }

  close(): Promise<void> {
    return this.store.close?.() ?? Promise.resolve();
  }
}
