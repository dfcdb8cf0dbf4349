import type { DataSource } from 'typeorm';
import { AccountEntity, TIERS, type Tier } from '../../entities/account.entity';
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
    /** told when a tier changes, so cached authentications are dropped */
    private readonly onTierChange: () => void = () => {},
  ) {}

  private get repo() {
    return this.dataSource.getRepository(AccountEntity);
  }

  async create(email: unknown, tier: unknown): Promise<AccountView> {
    const account = { email: parseEmail(email), tier: parseTier(tier) };
    const inserted = await this.repo
      .createQueryBuilder()
      .insert()
      .values(account)
      .orIgnore()
      .returning(['id', 'email', 'tier'])
      .execute();
    const row = inserted.raw[0] as AccountView | undefined;
    if (!row) throw new AppError('BAD_USER_INPUT', `an account with email ${account.email} already exists`);
    return { id: row.id, email: row.email, tier: row.tier };
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
    this.onTierChange();
    return saved;
  }

  async list(): Promise<AccountView[]> {
    return (await this.repo.find({ order: { id: 'ASC' } })).map(accountView);
  }
}
