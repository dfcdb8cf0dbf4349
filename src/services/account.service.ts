import type { DataSource, EntityManager } from 'typeorm';
import { AccountEntity } from '../db/entities/account.entity';
import { AlertTriggerEntity } from '../db/entities/alert-trigger.entity';
import { QuotaCounterEntity } from '../db/entities/quota-counter.entity';
import { WebsiteBillViewEntity } from '../db/entities/website-bill-view.entity';
import { TIERS, type Tier } from '../vocabulary';
import { AppError, badInput, notFound } from '../errors';

export interface AccountView {
  id: number;
  email: string;
  tier: Tier;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function parseEmail(email: unknown): string {
  if (typeof email !== 'string' || email.length > 254 || !EMAIL.test(email.trim())) throw badInput('email must be an email address');
  return email.trim().toLowerCase();
}

export function parseTier(tier: unknown): Tier {
  if (typeof tier !== 'string' || !(TIERS as readonly string[]).includes(tier.toLowerCase())) {
    throw badInput(`tier must be one of ${TIERS.join(', ')}`);
  }
  return tier.toLowerCase() as Tier;
}

export const accountView = (a: AccountEntity): AccountView => ({ id: a.id, email: a.email, tier: a.tier });

export class AccountService {
  constructor(
    private readonly dataSource: DataSource,
    /** told when a tier changes or an account goes, so cached authentications are dropped */
    private readonly onCredentialsChange: () => void = () => {},
  ) {}

  /** Cached authentications hold the email: drop them after it changes (SessionService.changeEmail). */
  credentialsChanged(): void {
    this.onCredentialsChange();
  }

  private get repo() {
    return this.dataSource.getRepository(AccountEntity);
  }

  /** `passwordHash`: a dashboard sign-up's (src/services/password.ts); the admin command makes accounts without one */
  async create(email: unknown, tier: unknown, passwordHash: string | null = null): Promise<AccountView> {
    const row = await this.insert(email, tier, passwordHash);
    if (!row) throw new AppError('BAD_USER_INPUT', `an account with email ${parseEmail(email)} already exists`);
    return row;
  }

  /**
   * As `create`, but an existing account of that email is left as it is: the new one, or null.
   * `andThen` runs for a new account in the insert's transaction (a sign-up's verification mail).
   */
  async createIfAbsent(email: unknown, tier: unknown, passwordHash: string | null = null, andThen?: (manager: EntityManager, account: AccountView) => Promise<void>): Promise<AccountView | null> {
    if (!andThen) return this.insert(email, tier, passwordHash);
    return this.dataSource.transaction(async (manager) => {
      const account = await this.insert(email, tier, passwordHash, manager);
      if (account) await andThen(manager, account);
      return account;
    });
  }

  private async insert(email: unknown, tier: unknown, passwordHash: string | null, manager: EntityManager = this.dataSource.manager): Promise<AccountView | null> {
    const account = { email: parseEmail(email), tier: parseTier(tier), passwordHash };
    const inserted = await manager
      .getRepository(AccountEntity)
      .createQueryBuilder()
      .insert()
      .values(account)
      .orIgnore()
      .returning(['id', 'email', 'tier'])
      .execute();
    const row = inserted.raw[0] as AccountView | undefined;
    return row ? { id: row.id, email: row.email, tier: row.tier } : null;
  }

  async findByEmail(email: unknown): Promise<AccountEntity> {
    const normalised = parseEmail(email);
    const account = await this.repo.findOneBy({ email: normalised });
    if (!account) throw notFound(`no account with email ${normalised}`);
    return account;
  }

  async setTier(email: unknown, tier: unknown): Promise<AccountView> {
    const account = await this.findByEmail(email);
    account.tier = parseTier(tier);
    const saved = accountView(await this.repo.save(account));
    this.onCredentialsChange();
    return saved;
  }

  /**
   * Deletes an account and everything that is its own: keys, watchlists with their bills and
   * thresholds (by foreign key), and its alert history and quota counters (kept without foreign
   * keys). Cached authentications are dropped, so its keys stop working at once.
   */
  async delete(email: unknown): Promise<AccountView & { deleted: true; keys: number; watchlists: number }> {
    const account = await this.findByEmail(email);
    const counts = await this.dataSource.transaction(async (manager) => {
      const [{ keys, watchlists }] = (await manager.query(
        'SELECT (SELECT count(*) FROM api_key WHERE account_id = $1)::int AS keys, (SELECT count(*) FROM watchlist WHERE account_id = $1)::int AS watchlists',
        [account.id],
      )) as { keys: number; watchlists: number }[];
      await manager.getRepository(AlertTriggerEntity).delete({ accountId: account.id });
      await manager.getRepository(QuotaCounterEntity).delete({ accountId: account.id });
      await manager.getRepository(WebsiteBillViewEntity).delete({ accountId: account.id });
      await manager.getRepository(AccountEntity).delete({ id: account.id });
      return { keys, watchlists };
    });
    this.onCredentialsChange();
    return { ...accountView(account), deleted: true, ...counts };
  }

  async list(): Promise<AccountView[]> {
    return (await this.repo.find({ order: { id: 'ASC' } })).map(accountView);
  }
}
