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

export interface KeyView {
  prefix: string;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

// last_used_at is a hint for the owner, not an audit log: write it at most once a minute per key.
const LAST_USED_RESOLUTION_MS = 60_000;
/**
 * How long a verified key is trusted without asking the database again. Revoking a key or
 * changing a tier in this process takes effect at once; done by another process (the CLI on
 * PostgreSQL, another instance), at the server's next poll (checkForChanges, every 2 seconds).
 */
export const AUTH_CACHE_MS = 10_000;
/**
 * How long a key that matched nothing (unknown, wrong secret, revoked) is remembered as such, so a
 * client repeating forged keys does not reach the database each time. Short, and forgotten when a
 * key is created anywhere (the poll notices), so a new key is never refused for long.
 */
export const UNKNOWN_KEY_MS = 30_000;
/** Unknown keys remembered at most; the oldest are forgotten first, and never a verified key. */
export const MAX_UNKNOWN_KEYS = 10_000;

export class ApiKeyService {
  private readonly verified = new Map<string, { user: AuthenticatedUser; expires: number }>();
  /** digest of a presented key, or `prefix:` + a prefix no key has, → when to forget it */
  private readonly unknown = new Map<string, number>();
  /** database lookups made to verify keys (the caches are there to keep this low) */
  lookups = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountService,
    private readonly now: () => number = Date.now,
  ) {}

  private get repo() {
    return this.dataSource.getRepository(ApiKeyEntity);
  }

  async create(email: unknown, name?: unknown): Promise<IssuedKey> {
    if (name !== undefined && (typeof name !== 'string' || name.length > 100)) throw badInput('name must be a string of at most 100 characters');
    const account = await this.accounts.findByEmail(email);
    if (account.tier === 'free') {
      throw new AppError('FORBIDDEN', `${account.email} is on the free tier: API keys need the pilot tier or above`);
    }
    const prefix = `bp_${randomBytes(4).toString('hex')}`;
    const apiKey = `${prefix}_${randomBytes(32).toString('base64url')}`;
    const saved = await this.repo.save({ accountId: account.id, name: (name as string | undefined) ?? null, prefix, secretHash: sha256(apiKey).toString('hex') });
    this.unknown.clear();
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
    this.forgetVerified();
    return { prefix, revoked_at: key.revokedAt.toISOString() };
  }

  /** An account's keys as the owner may see them: never the key or its hash. */
  async listFor(email: unknown): Promise<{ email: string; keys: KeyView[] }> {
    const account = await this.accounts.findByEmail(email);
    const keys = await this.repo.find({ where: { accountId: account.id }, order: { id: 'ASC' } });
    return {
      email: account.email,
      keys: keys.map((k) => ({
        prefix: k.prefix,
        name: k.name,
        created_at: k.createdAt.toISOString(),
        last_used_at: k.lastUsedAt?.toISOString() ?? null,
        revoked_at: k.revokedAt?.toISOString() ?? null,
      })),
    };
  }

  private credentialsState: string | null = null;

  /**
   * Notices revocations, tier changes and deleted accounts made by other processes (the server polls this every
   * few seconds) and drops the verified keys when there are any.
   */
  async checkForChanges(): Promise<void> {
    const [{ state }] = (await this.dataSource.query(
      `SELECT coalesce((SELECT max(revoked_at) FROM api_key)::text, '') || '|' || coalesce((SELECT max(updated_at) FROM account)::text, '') || '|' || (SELECT count(*) FROM account)::text || '|' || coalesce((SELECT max(id) FROM api_key)::text, '') AS state`,
    )) as { state: string }[];
    if (this.credentialsState !== null && state !== this.credentialsState) {
      this.forgetVerified();
      this.unknown.clear();
    }
    this.credentialsState = state;
  }

  /** Drops every verified key: after a revocation or a tier change, nothing stale is trusted. */
  forgetVerified(): void {
    this.verified.clear();
  }

  /** The user a presented key belongs to; null when the key is malformed, unknown or revoked. */
  async authenticate(presented: string): Promise<AuthenticatedUser | null> {
    const match = KEY_PATTERN.exec(presented);
    if (!match) return null;
    const digest = sha256(presented).toString('hex');
    const now = this.now();
    const cached = this.verified.get(digest);
    if (cached && cached.expires > now) return cached.user;
    if (this.isRemembered(digest, now) || this.isRemembered(`prefix:${match[1]}`, now)) return null;
    const found = await this.verify(presented, match[1]);
    if (found.user) {
      if (this.verified.size > 10_000) this.verified.clear();
      this.verified.set(digest, { user: found.user, expires: now + AUTH_CACHE_MS });
    } else {
      this.remember(found.prefixExists ? digest : `prefix:${match[1]}`, now);
    }
    return found.user;
  }

  /** True when the key was verified recently and its user may call the API: no database needed to say so. */
  isTrusted(presented: string): boolean {
    if (!KEY_PATTERN.test(presented)) return false;
    const cached = this.verified.get(sha256(presented).toString('hex'));
    return Boolean(cached && cached.expires > this.now() && cached.user.tier !== 'free');
  }

  private isRemembered(entry: string, now: number): boolean {
    const expires = this.unknown.get(entry);
    if (expires === undefined) return false;
    if (expires > now) return true;
    this.unknown.delete(entry);
    return false;
  }

  private remember(entry: string, now: number): void {
    this.unknown.delete(entry);
    this.unknown.set(entry, now + UNKNOWN_KEY_MS);
    if (this.unknown.size > MAX_UNKNOWN_KEYS) this.unknown.delete(this.unknown.keys().next().value!);
  }

  private async verify(presented: string, prefix: string): Promise<{ user: AuthenticatedUser | null; prefixExists: boolean }> {
    this.lookups += 1;
    const key = await this.repo.findOneBy({ prefix });
    if (!key) return { user: null, prefixExists: false };
    // The prefix only finds the row; the secret is checked by its hash, in constant time.
    if (!timingSafeEqual(sha256(presented), Buffer.from(key.secretHash, 'hex')) || key.revokedAt) return { user: null, prefixExists: true };
    const account = await this.dataSource.getRepository(AccountEntity).findOneBy({ id: key.accountId });
    if (!account) return { user: null, prefixExists: true };
    if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.repo.update({ id: key.id }, { lastUsedAt: new Date() });
    }
    return { user: { accountId: account.id, email: account.email, tier: account.tier, keyId: key.id }, prefixExists: true };
  }
}
