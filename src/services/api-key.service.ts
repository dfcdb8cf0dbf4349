import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { IsNull } from 'typeorm';
import type { Tier } from '../db/entities/account.entity';
import type { AuthenticatedUser } from '../common/authenticated-user';
import { ApiKeyEntity } from '../db/entities/api-key.entity';
import { AppError, badInput, notFound } from '../errors';
import type { AccountService } from './account.service';
import { keepWithin } from '../common/bounded-map';

/** Keys look like `bp_<8 hex>_<43 base64url>`: the first part is the stored prefix, the whole is hashed. */
const KEY_PATTERN = /^(bp_[0-9a-f]{8})_[A-Za-z0-9_-]{43}$/;

/**
 * The SHA-256 of a presented credential (an API key, a dashboard session token): what is stored
 * and looked up, never the credential itself. Every authenticated request computes one:
 * crypto.hash (Node.js 20.12+) does it in a third of createHash's time.
 */
export const credentialDigest: (credential: string) => Buffer =
  typeof hash === 'function' ? (credential) => hash('sha256', credential, 'buffer') : (credential) => createHash('sha256').update(credential).digest();

/** credentialDigest as hexadecimal text, the stored form: crypto.hash writes hex itself faster than it makes a Buffer. */
export const credentialHexDigest: (credential: string) => string =
  typeof hash === 'function' ? (credential) => hash('sha256', credential, 'hex') : (credential) => createHash('sha256').update(credential).digest('hex');



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

// last_used_at is a hint for the owner, not an audit log: write it at most once a minute per key,
// and for all keys at once a second later, so verifying a key never waits on a write.
const LAST_USED_RESOLUTION_MS = 60_000;
const LAST_USED_FLUSH_MS = 1_000;
/**
 * How long a verified key is trusted before it is verified again. Revocations, tier changes and
 * deleted accounts do not wait for it: in this process they drop the cache at once, and those
 * made elsewhere (the CLI on PostgreSQL, another instance) are noticed by the next poll
 * (CREDENTIALS_POLL_MS). Verification again also finds a change a poll could miss.
 */
export const AUTH_CACHE_MS = 10_000;
/**
 * After AUTH_CACHE_MS, a key is still answered from the cache for this long while it is verified
 * again in the background, so a client in steady use never waits on the database for its key.
 * Past it, the key is verified before the request goes on.
 */
export const AUTH_STALE_MS = 60_000;
/**
 * How often a server asks the database whether keys or accounts changed in another process or
 * instance: the bound on how long a revocation made elsewhere goes unnoticed (issue 9: within
 * 1 s on one instance, 5 s across instances).
 */
export const CREDENTIALS_POLL_MS = 500;
/**
 * How long a verified key is trusted on the embedded database, where every change to keys and
 * accounts goes through this process (no other process opens the database while the server runs;
 * the admin CLI goes through the server) and so drops the verified keys at once: verification
 * again finds nothing a change has not already dropped. It still happens, to note last uses.
 * (With AUTH_CACHE_MS, 300 clients in steady use cost 30 verifications a second, each a PGlite
 * statement of a few milliseconds under load.)
 */
export const EMBEDDED_AUTH_CACHE_MS = 10 * 60_000;
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
  /** raised whenever the verified keys are dropped: a verification that began before must not cache its answer */
  private generation = 0;
  /** last uses not yet written, by key id */
  private readonly lastUsed = new Map<number, Date>();
  private lastUsedFlush: NodeJS.Timeout | null = null;
  /** digests being verified again in the background, and those verifications */
  private readonly reverifying = new Map<string, Promise<unknown>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountService,
    private readonly now: () => number = Date.now,
    /** how long a verified key is trusted before it is verified again (EMBEDDED_AUTH_CACHE_MS on the embedded database) */
    private readonly trustMs = AUTH_CACHE_MS,
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
    const saved = await this.repo.save({ accountId: account.id, name: (name as string | undefined) ?? null, prefix, secretHash: credentialHexDigest(apiKey) });
    this.unknown.clear();
    return { api_key: apiKey, prefix, id: saved.id };
  }

  /** `ownerId`: only a key of this account (the dashboard); another's is as unknown as a key that never was. */
  async revoke(prefix: unknown, ownerId?: number): Promise<{ prefix: string; revoked_at: string }> {
    if (typeof prefix !== 'string' || !/^bp_[0-9a-f]{8}$/.test(prefix)) throw badInput('prefix must look like bp_0123abcd');
    const key = await this.repo.findOneBy({ prefix });
    if (!key || (ownerId !== undefined && key.accountId !== ownerId)) throw notFound(`no API key with prefix ${prefix}`);
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await this.repo.update({ id: key.id, revokedAt: IsNull() }, { revokedAt: key.revokedAt });
    }
    this.forgetVerified();
    return { prefix, revoked_at: key.revokedAt.toISOString() };
  }

  /** An account's keys, oldest first, as the dashboard shows them: never the key or its hash. */
  async keysOf(accountId: number): Promise<{ prefix: string; name: string | null; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }[]> {
    await this.writeLastUsed();
    const keys = await this.repo.find({ where: { accountId }, order: { id: 'ASC' } });
    return keys.map((k) => ({ prefix: k.prefix, name: k.name, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt }));
  }

  /** An account's keys as the owner may see them: never the key or its hash. */
  async listFor(email: unknown): Promise<{ email: string; keys: KeyView[] }> {
    const account = await this.accounts.findByEmail(email);
    await this.writeLastUsed();
    return {
      email: account.email,
      keys: (await this.keysOf(account.id)).map((k) => ({
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
    this.generation += 1;
    this.verified.clear();
  }

  /**
   * Polls checkForChanges every `intervalMs` (one poll at a time) until the returned function is
   * called; `onPoll` hears each completed poll, or its error.
   */
  watch(intervalMs = CREDENTIALS_POLL_MS, onPoll: (error?: Error) => void = () => undefined): () => void {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const tick = () => {
      this.checkForChanges().then(
        () => onPoll(),
        (error: Error) => onPoll(error),
      ).finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs).unref();
      });
    };
    timer = setTimeout(tick, intervalMs).unref();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  /** The last key digested and its digest: a request's key is looked at twice (the address limit's isTrusted, then authenticate). */
  private lastDigest = { presented: '', digest: '' };

  private digestOf(presented: string): string {
    if (this.lastDigest.presented !== presented) this.lastDigest = { presented, digest: credentialHexDigest(presented) };
    return this.lastDigest.digest;
  }

  /** The user a presented key belongs to; null when the key is malformed, unknown or revoked. */
  async authenticate(presented: string): Promise<AuthenticatedUser | null> {
    const match = KEY_PATTERN.exec(presented);
    if (!match) return null;
    const digest = this.digestOf(presented);
    const now = this.now();
    const cached = this.verified.get(digest);
    if (cached && cached.expires > now) return cached.user;
    if (cached && cached.expires + AUTH_STALE_MS > now) {
      this.reverify(presented, match[1], digest);
      return cached.user;
    }
    if (this.isRemembered(digest, now) || this.isRemembered(`prefix:${match[1]}`, now)) return null;
    return this.verifyAndCache(presented, match[1], digest);
  }

  private async verifyAndCache(presented: string, prefix: string, digest: string): Promise<AuthenticatedUser | null> {
    const generation = this.generation;
    const found = await this.verify(presented, prefix);
    const now = this.now();
    if (found.user) {
      // a revocation or tier change while the database was asked: the answer may predate it
      if (generation !== this.generation) return found.user;
      if (this.verified.size > 10_000) this.verified.clear();
      this.verified.set(digest, { user: found.user, expires: now + this.trustMs });
    } else {
      this.verified.delete(digest);
      this.remember(found.prefixExists ? digest : `prefix:${prefix}`, now);
    }
    return found.user;
  }

  /** Verifies a cached key again without making its request wait; a key found revoked is dropped. */
  private reverify(presented: string, prefix: string, digest: string): void {
    if (this.reverifying.has(digest)) return;
    const verification = this.verifyAndCache(presented, prefix, digest)
      // the database unreachable: the key stays as it was, and is verified again on its next use
      .catch(() => undefined)
      .finally(() => this.reverifying.delete(digest));
    this.reverifying.set(digest, verification);
  }

  /** Resolves once the background verifications under way have finished. */
  async reverified(): Promise<void> {
    await Promise.all(this.reverifying.values());
  }

  /** True when the key was verified recently and its user may call the API: no database needed to say so. */
  isTrusted(presented: string): boolean {
    if (!KEY_PATTERN.test(presented)) return false;
    const cached = this.verified.get(this.digestOf(presented));
    return Boolean(cached && cached.expires + AUTH_STALE_MS > this.now() && cached.user.tier !== 'free');
  }

  private isRemembered(entry: string, now: number): boolean {
    const expires = this.unknown.get(entry);
    if (expires === undefined) return false;
    if (expires > now) return true;
    this.unknown.delete(entry);
    return false;
  }

  private remember(entry: string, now: number): void {
    keepWithin(this.unknown, entry, now + UNKNOWN_KEY_MS, MAX_UNKNOWN_KEYS, { refresh: true });
  }

  private async verify(presented: string, prefix: string): Promise<{ user: AuthenticatedUser | null; prefixExists: boolean }> {
    this.lookups += 1;
    // one statement: verification runs again every AUTH_CACHE_MS for every key in use
    const [key] = (await this.dataSource.query(
      `SELECT k.id, k.secret_hash, k.revoked_at IS NOT NULL AS revoked, k.last_used_at, a.id AS account_id, a.email, a.tier
       FROM api_key k LEFT JOIN account a ON a.id = k.account_id WHERE k.prefix = $1`,
      [prefix],
    )) as { id: number; secret_hash: string; revoked: boolean; last_used_at: Date | string | null; account_id: number | null; email: string; tier: Tier }[];
    if (!key) return { user: null, prefixExists: false };
    // The prefix only finds the row; the secret is checked by its hash, in constant time.
    if (!timingSafeEqual(credentialDigest(presented), Buffer.from(key.secret_hash, 'hex')) || key.revoked) return { user: null, prefixExists: true };
    if (key.account_id === null) return { user: null, prefixExists: true };
    const lastUsed = key.last_used_at === null ? null : new Date(key.last_used_at).getTime();
    if (lastUsed === null || Date.now() - lastUsed > LAST_USED_RESOLUTION_MS) this.noteUse(key.id);
    return { user: { accountId: key.account_id, email: key.email, tier: key.tier, credential: 'api-key', keyId: key.id, sessionId: null }, prefixExists: true };
  }

  private noteUse(keyId: number): void {
    this.lastUsed.set(keyId, new Date());
    this.lastUsedFlush ??= setTimeout(() => void this.writeLastUsed().catch(() => undefined), LAST_USED_FLUSH_MS).unref();
  }

  /** Writes the last uses noted since the previous write, in one statement. */
  async writeLastUsed(): Promise<void> {
    if (this.lastUsedFlush) clearTimeout(this.lastUsedFlush);
    this.lastUsedFlush = null;
    if (!this.lastUsed.size) return;
    const uses = [...this.lastUsed];
    this.lastUsed.clear();
    await this.dataSource.query(
      `UPDATE api_key SET last_used_at = t.used_at FROM unnest($1::int[], $2::timestamptz[]) AS t(id, used_at)
       WHERE api_key.id = t.id AND (api_key.last_used_at IS NULL OR api_key.last_used_at < t.used_at)`,
      [uses.map(([id]) => id), uses.map(([, at]) => at.toISOString())],
    );
  }
}
