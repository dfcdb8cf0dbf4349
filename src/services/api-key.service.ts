import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { IsNull } from 'typeorm';
import type { Tier } from '../../entities/account.entity';
import { AccountEntity } from '../../entities/account.entity';
import { ApiKeyEntity } from '../../entities/api-key.entity';
import { AppError, badInput, notFound } from '../errors';
import type { AccountService } from './account.service';

/** Keys look like `bp_<8 hex>_<43 base64url>`: the first part is the stored prefix, the whole is hashed. */
const KEY_PATTERN = /^(bp_[0-9a-f]{8})_[A-Za-z0-9_-]{43}$/;

const sha256 = (value: string) => createHash('sha256').update(value).digest();

export interface AuthenticatedUser {
  accountId: number;
  email: string;
  tier: Tier;
  keyId: number;
}

export interface IssuedKey {
  /** the secret: shown once, never stored */
  api_key: string;
  prefix: string;
  id: number;
}

// last_used_at is a hint for the owner, not an audit log: write it at most once a minute per key.
const LAST_USED_RESOLUTION_MS = 60_000;

export class ApiKeyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountService,
  ) {}

  private get repo() {
    return this.dataSource.getRepository(ApiKeyEntity);
  }

  async create(email: unknown, name?: unknown): Promise<IssuedKey> {
    if (name !== undefined && (typeof name !== 'string' || name.length > 100)) throw badInput('name must be a string of at most 100 characters');
    const account = await this.accounts.findByEmail(email);
    if (account.tier === 'free') {
      throw new AppError('FORBIDDEN', `${account.email} is on the Free tier: API keys need the Pilot tier or above`);
    }
    const prefix = `bp_${randomBytes(4).toString('hex')}`;
    const apiKey = `${prefix}_${randomBytes(32).toString('base64url')}`;
    const saved = await this.repo.save({ accountId: account.id, name: (name as string | undefined) ?? null, prefix, secretHash: sha256(apiKey).toString('hex') });
    return { api_key: apiKey, prefix, id: saved.id };
  }

  async revoke(prefix: unknown): Promise<{ prefix: string; revoked_at: string }> {
    if (typeof prefix !== 'string' || !/^bp_[0-9a-f]{8}$/.test(prefix)) throw badInput('prefix must look like bp_0123abcd');
    const key = await this.repo.findOneBy({ prefix });
    if (!key) throw notFound(`no API key with prefix ${prefix}`);
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await this.repo.update({ id: key.id, revokedAt: IsNull() }, { revokedAt: key.revokedAt });
    }
    return { prefix, revoked_at: key.revokedAt.toISOString() };
  }

  /** The user a presented key belongs to; null when the key is malformed, unknown or revoked. */
  async authenticate(presented: string): Promise<AuthenticatedUser | null> {
    const match = KEY_PATTERN.exec(presented);
    if (!match) return null;
    const key = await this.repo.findOneBy({ prefix: match[1] });
    // The prefix only finds the row; the secret is checked by its hash, in constant time.
    if (!key || !timingSafeEqual(sha256(presented), Buffer.from(key.secretHash, 'hex')) || key.revokedAt) return null;
    const account = await this.dataSource.getRepository(AccountEntity).findOneBy({ id: key.accountId });
    if (!account) return null;
    if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.repo.update({ id: key.id }, { lastUsedAt: new Date() });
    }
    return { accountId: account.id, email: account.email, tier: account.tier, keyId: key.id };
  }
}
