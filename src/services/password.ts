import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { badInput } from '../errors';
import { type HeldPlace, type PasswordJob, passwordQueue } from './password-queue';

/**
 * scrypt (memory-hard) with N = 2^15, r = 8, p = 1: 32 MiB and tens of milliseconds per hash, the
 * OWASP minimum for scrypt. It runs on libuv's thread pool, so the event loop stays free, through
 * the password queue (src/services/password-queue.ts), so the pool stays free too.
 */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const PASSWORD_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** scrypt through the password queue, in `place` when the caller holds one. */
function derive(kind: PasswordJob, password: string, salt: Buffer, cost: ScryptCost, place?: HeldPlace): Promise<Buffer> {
  const job = () => new Promise<Buffer>((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...cost, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key))));
  return place ? place.run(job) : passwordQueue.run(kind, job);
}

/** A new password as the user chose it: long enough to resist guessing, short enough to hash cheaply. */
export function parseNewPassword(password: unknown, field = 'password'): string {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw badInput(`${field} must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters`, field);
  }
  return password;
}

/**
 * `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash, so they can be raised
 * later. `cost`: lower only in tests, which check behaviour, not the hash's strength.
 */
export async function hashPassword(password: string, cost: ScryptCost = PASSWORD_COST, place?: HeldPlace): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive('hash', password, salt, cost, place);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A place in the queue of new passwords' hashes, taken before the work that comes first (hashPassword's `place`); a 503 when the queue is full. */
export const holdPlaceToHash = (): HeldPlace => passwordQueue.hold('hash');

/** Constant-time check of a password against a stored hash; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every(Number.isSafeInteger)) return false;
  const key = await derive('verify', password, Buffer.from(salt, 'base64url'), cost);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of nothing in particular, at the given cost: verified against when the email is unknown, so a wrong email takes as long as a wrong password. */
export const decoyHash = (cost: ScryptCost = PASSWORD_COST) => `scrypt$${cost.N}$${cost.r}$${cost.p}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
