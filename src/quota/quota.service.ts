import type { DataSource } from 'typeorm';
import { DependencyHealth } from '../health/dependency-health';
import { createLogger, type Logger } from '../logger';
import { Readiness } from '../health/readiness';
import type { Tier } from '../db/entities/account.entity';
import type { AuthenticatedUser } from '../common/authenticated-user';
import { type QuotaStore, SqlQuotaStore } from './quota-store';
import { RedisQuotaStore } from './redis-quota-store';
import { WriteBehindQuotaStore } from './write-behind-quota-store';
import { RequestQuota } from './request-quota';
import { WebsiteBillViews } from './website-bill-views';
import type { QuotaKind } from './tier-limits';

/**
 * Daily quotas. Counters in Redis when REDIS_URL is set (shared by instances); else on
 * PostgreSQL in its table, one atomic statement a take (shared by instances); else, on the
 * embedded database that one process owns, in memory written behind to the table.
 */
export class QuotaService {
  readonly store: QuotaStore;
  private readonly billViews: WebsiteBillViews;
  /** refusals by limit since start (a request or batch item over a daily limit), for /metrics */
  readonly refusals: Record<QuotaKind, number> = { calls: 0, batches: 0, predictions: 0 };

  constructor(
    dataSource: DataSource,
    /** Redis's state goes to `readiness` and `logger` (a second service on the same counters may leave them out) */
    options: { redisUrl?: string; embedded: boolean; readiness?: Readiness; logger?: Logger },
    /** the real time: quotas run on UTC days, not on the service's (snapshot) today */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.billViews = new WebsiteBillViews(dataSource);
    this.store = options.redisUrl
      ? new RedisQuotaStore(options.redisUrl, new DependencyHealth('Redis', options.readiness ?? new Readiness(), options.logger ?? createLogger('silent')))
      : options.embedded
        ? new WriteBehindQuotaStore(dataSource)
        : new SqlQuotaStore(dataSource);
  }

  forUser(user: AuthenticatedUser): RequestQuota {
    if (user.credential === 'session') return new RequestQuota(this.store, user.accountId, user.tier, this.now(), (kind) => this.refusals[kind]++, this.billViews);
    return this.forAccount(user.accountId, user.tier);
  }

  /** The account's limits for work done on its behalf outside a request (the hourly alert check). */
  forAccount(accountId: number, tier: Tier): RequestQuota {
    return new RequestQuota(this.store, accountId, tier, this.now(), (kind) => this.refusals[kind]++);
  }

  close(): Promise<void> {
    return this.store.close?.() ?? Promise.resolve();
  }
}
