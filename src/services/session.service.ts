import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AccountEntity } from '../db/entities/account.entity';
import { DashboardSessionEntity } from '../db/entities/dashboard-session.entity';
import { AppError } from '../errors';
import { type AccountService, type AccountView, accountView, parseEmail } from './account.service';
import type { AccountEmailService } from './account-email.service';
import type { AuthenticatedUser } from '../common/authenticated-user';
import { credentialHexDigest } from './api-key.service';
import { LoginThrottle } from './login-throttle';
import { DEFAULT_SIGN_UP_LIMIT, SignUpLimit } from './attempt-limit';
import { MemoryLoginFailureStore } from '../attempts/login-failure-store';
import { decoyHash, hashPassword, PASSWORD_COST, parseNewPassword, holdPlaceToHash, type ScryptCost, verifyPassword } from './password';

/** A session ends this long after it began, however active. */
export const SESSION_LIFETIME_MS = 7 * 24 * 3600_000;
/** A session unused this long has ended. */
export const SESSION_IDLE_MS = 24 * 3600_000;
/** last_seen_at is written at most this often per session. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** The one answer to a wrong email or a wrong password, so neither tells which it was. */
export const WRONG_CREDENTIALS = 'Wrong email or password';

export interface IssuedSession {
  /** the secret the browser keeps in its cookie; only its hash is stored */
  token: string;
  expiresAt: Date;
}

const tokenHash = credentialHexDigest;

/**
 * Dashboard accounts and their browser sessions: sign-up (a new account is Free), log-in with
 * throttled guessing, log-out, change of password (which ends every session of the account).
 */
export class SessionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountService,
    private readonly throttle: LoginThrottle = new LoginThrottle(),
    private readonly signUps: SignUpLimit = new SignUpLimit(DEFAULT_SIGN_UP_LIMIT, new MemoryLoginFailureStore()),
    private readonly now: () => number = Date.now,
    private readonly passwordCost: ScryptCost = PASSWORD_COST,
    /** the verification mail of a new account or a new address, in the transaction that makes it (AccountEmailService) */
    private readonly verification?: Pick<AccountEmailService, 'sendVerification' | 'queued'>,
  ) {}

  private get sessions() {
    return this.dataSource.getRepository(DashboardSessionEntity);
  }

  /**
   * Makes a Free account for the address unless it has one, and says neither way: an existing
   * account keeps its password and sessions. Both ways hash the password and make one insert, so
   * the time taken does not tell them apart either. No session: whoever owns the address logs in.
   * `address`: the client's, whose sign-ups are limited (none for a command run by the operator).
   */
  async signUp(email: unknown, password: unknown, address?: string): Promise<void> {
    const normalised = parseEmail(email);
    const chosen = parseNewPassword(password);
    // the place to hash it first: a flood the queue cannot take is refused before the limit's round trip to the store
    const hashing = holdPlaceToHash();
    const place = await this.signUps.admit(address).catch((error: unknown) => {
      hashing.release();
      throw error;
    });
    const hash = await hashPassword(chosen, this.passwordCost, hashing).catch(async (error: unknown) => {
      await place.release();
      throw error;
    });
    const verification = this.verification;
    const created = await this.accounts.createIfAbsent(normalised, 'free', hash, verification && ((manager, account) => verification.sendVerification(manager, account)));
    if (created) verification?.queued();
  }

  /**
   * Changes the account's address once the current password is confirmed (throttled as log-ins
   * are): UNVERIFIED until the link mailed to the new address is opened; nothing is mailed to it
   * before. An address another account has is refused with the same words as any taken one.
   */
  async changeEmail(accountId: number, newEmail: unknown, currentPassword: unknown, address: string | undefined): Promise<AccountView> {
    const email = parseEmail(newEmail);
    const account = await this.confirmedAccount(accountId, currentPassword, address);
    if (email === account.email) throw new AppError('BAD_USER_INPUT', 'That is the account’s address already', { field: 'email' });
    const changed = await this.dataSource
      .transaction(async (manager) => {
        // typeorm answers an UPDATE … RETURNING on PostgreSQL drivers as [rows, affected]
        const answer = (await manager.query(`UPDATE account SET email = $2, email_status = 'UNVERIFIED', updated_at = now() WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM account WHERE email = $2) RETURNING id`, [accountId, email])) as unknown[];
        const rows = Array.isArray(answer[0]) ? (answer[0] as unknown[]) : answer;
        if (!rows.length) return false;
        await this.verification?.sendVerification(manager, { id: accountId, email });
        return true;
      })
      // another account took the address meanwhile: the unique index refuses it, as the check above does
      .catch((error: { code?: string; driverError?: { code?: string } }) => {
        if ((error.driverError?.code ?? error.code) === '23505') return false;
        throw error;
      });
    if (!changed) throw new AppError('BAD_USER_INPUT', 'That address cannot be used for this account', { field: 'email' });
    this.verification?.queued();
    this.accounts.credentialsChanged();
    return { id: accountId, email, tier: account.tier };
  }

  /**
   * The signed-in account, once its current password is confirmed: a change of address or of
   * password asks for it, throttled as log-ins are (the attempt's place taken before the check).
   */
  private async confirmedAccount(accountId: number, currentPassword: unknown, address: string | undefined): Promise<AccountEntity> {
    const account = await this.dataSource.getRepository(AccountEntity).createQueryBuilder('a').addSelect('a.passwordHash').where('a.id = :id', { id: accountId }).getOne();
    if (!account) throw new AppError('UNAUTHENTICATED', 'Your session has ended: log in again');
    const attempt = await this.throttle.admit(account.email, address);
    if (typeof currentPassword !== 'string' || !account.passwordHash || !(await verifyPassword(currentPassword, account.passwordHash))) {
      throw new AppError('BAD_USER_INPUT', 'The current password is wrong', { field: 'currentPassword' });
    }
    await attempt.succeeded();
    return account;
  }

  async logIn(email: unknown, password: unknown, address: string | undefined): Promise<{ account: AccountView; session: IssuedSession }> {
    if (typeof email !== 'string' || typeof password !== 'string' || email.length > 254 || password.length > 1000) throw new AppError('UNAUTHENTICATED', WRONG_CREDENTIALS);
    const normalised = email.trim().toLowerCase();
    const attempt = await this.throttle.admit(normalised, address);
    const account = await this.dataSource.getRepository(AccountEntity).createQueryBuilder('a').addSelect('a.passwordHash').where('a.email = :email', { email: normalised }).getOne();
    // the decoy makes an unknown email cost the same scrypt as a known one
    const matches = await verifyPassword(password, account?.passwordHash ?? decoyHash(this.passwordCost));
    // a failure keeps its place in the throttle, taken before the check
    if (!account?.passwordHash || !matches) throw new AppError('UNAUTHENTICATED', WRONG_CREDENTIALS);
    await attempt.succeeded();
    return { account: accountView(account), session: await this.open(account.id) };
  }

  async logOut(sessionId: number): Promise<void> {
    await this.sessions.delete({ id: sessionId });
  }

  /** Checks the current password, stores the new one, ends every session of the account and opens one for this browser. */
  async changePassword(accountId: number, currentPassword: unknown, newPassword: unknown, address: string | undefined): Promise<IssuedSession> {
    const chosen = parseNewPassword(newPassword, 'newPassword');
    await this.confirmedAccount(accountId, currentPassword, address);
    const hash = await hashPassword(chosen, this.passwordCost);
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(AccountEntity).update({ id: accountId }, { passwordHash: hash });
      await manager.getRepository(DashboardSessionEntity).delete({ accountId });
    });
    return this.open(accountId);
  }

  /**
   * The operator's password reset (`npm run admin -- set-password`): gives an account (an admin-made
   * one has none) a password, and ends every session it had, as a change of password does.
   */
  async setPassword(email: unknown, password: unknown): Promise<{ account: AccountView; sessionsEnded: number }> {
    const account = await this.accounts.findByEmail(email);
    const hash = await hashPassword(parseNewPassword(password), this.passwordCost);
    const sessionsEnded = await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(AccountEntity).update({ id: account.id }, { passwordHash: hash });
      return (await manager.getRepository(DashboardSessionEntity).delete({ accountId: account.id })).affected ?? 0;
    });
    return { account: accountView(account), sessionsEnded };
  }

  /** The user behind a session token; null when it is unknown, expired or idle too long (an ended session is deleted). */
  async authenticate(token: string): Promise<AuthenticatedUser | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const rows = (await this.dataSource.query(
      `SELECT s.id, s.account_id, s.last_seen_at, s.expires_at, a.email, a.tier FROM dashboard_session s JOIN account a ON a.id = s.account_id WHERE s.token_hash = $1`,
      [tokenHash(token)],
    )) as { id: number; account_id: number; last_seen_at: Date; expires_at: Date; email: string; tier: AuthenticatedUser['tier'] }[];
    const row = rows[0];
    if (!row) return null;
    const now = this.now();
    const lastSeen = new Date(row.last_seen_at).getTime();
    if (new Date(row.expires_at).getTime() <= now || lastSeen + SESSION_IDLE_MS <= now) {
      await this.sessions.delete({ id: row.id });
      return null;
    }
    if (now - lastSeen > LAST_SEEN_RESOLUTION_MS) await this.sessions.update({ id: row.id }, { lastSeenAt: new Date(now) });
    return { accountId: row.account_id, email: row.email, tier: row.tier, credential: 'session', keyId: null, sessionId: row.id };
  }

  private async open(accountId: number): Promise<IssuedSession> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date(this.now());
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
    await this.sessions.insert({ accountId, tokenHash: tokenHash(token), lastSeenAt: now, expiresAt });
    return { token, expiresAt };
  }
}
