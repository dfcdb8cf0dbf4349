import type { DataSource } from 'typeorm';
import type { AuthenticatedUser } from '../services/api-key.service';
import { type QuotaStore, SqlQuotaStore } from './quota-store';
import { RedisQuotaStore } from './redis-quota-store';
import { RequestQuota } from './request-quota';

/** Daily quotas: counters in Redis when REDIS_URL is set (shared by instances), else in the database. */
export class QuotaService {
  readonly store: QuotaStore;

  constructor(
    dataSource: DataSource,
    redisUrl: string | undefined,
    /** the real time: quotas run on UTC days, not on the service's (snapshot) today */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = redisUrl ? new RedisQuotaStore(redisUrl) : new SqlQuotaStore(dataSource);
  }

  forUser(user: AuthenticatedUser): RequestQuota {
    return new RequestQuota(this.store, user.accountId, user.tier, this.now());
  }

  close(): Promise<void> {
    return this.store.close?.() ?? Promise.resolve();
  }
}
