import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { keepWithin } from '../../common/bounded-map';

/** Opened secrets kept (by sealed value): every attempt signs, and AES-GCM per attempt was ~8 µs of a delivery's CPU. */
const OPENED_KEPT = 10_000;

/**
 * Webhook signing secrets at rest: the service signs with them, so they are kept (not hashed), but
 * sealed with AES-256-GCM under a key that is not in the database (WEBHOOK_SECRET_KEY, or a key file
 * in DATA_DIR). A stolen database copy or backup alone reveals no secret. A sealed value names the
 * key it was sealed with (a fingerprint), so a wrong key is a clear error, never garbage.
 */
export class SecretBox {
  private readonly fingerprint: string;
  private readonly opened = new Map<string, string>();

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the webhook secret key must be 32 bytes');
    this.fingerprint = createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', this.fingerprint, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join('.');
  }

  open(sealed: string): string {
    const kept = this.opened.get(sealed);
    if (kept !== undefined) return kept;
    const plain = this.openSealed(sealed);
    // the oldest opened goes first: a sealed value is never changed, only replaced (rotation)
    keepWithin(this.opened, sealed, plain, OPENED_KEPT);
    return plain;
  }

  private openSealed(sealed: string): string {
    const [version, fingerprint, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !data) throw new Error('not a sealed webhook secret');
    if (fingerprint !== this.fingerprint) throw new Error(`the webhook secret was sealed with another key (${fingerprint}); set WEBHOOK_SECRET_KEY to the key every instance shares`);
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }

  /**
   * A key of its own for another secret the service derives (a watchlist's feed address), made
   * from this one: one setting (WEBHOOK_SECRET_KEY, or the key file) keys them all, and no two
   * purposes share a key.
   */
  subkey(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(`bill-progress subkey: ${purpose}`).digest();
  }

  /** The secrets that sign an attempt made at `at`: the current one, and the previous one within 24 hours of a rotation. */
  signingSecrets(endpoint: SealedSecrets, at: Date): string[] {
    const current = this.open(endpoint.secretSealed);
    const previousValid = endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > at.getTime();
    return previousValid ? [current, this.open(endpoint.previousSecretSealed!)] : [current];
  }
}

/** An endpoint's secrets as stored: the current one, and the one it replaced until that expires. */
export interface SealedSecrets {
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
}

export const SECRET_KEY_FILE = 'webhook-secret.key';

/**
 * The key: WEBHOOK_SECRET_KEY when set (several instances must share one); else DATA_DIR's key
 * file, made on first use readable by the owner alone; with neither (tests), a key for this process.
 */
export function loadSecretBox(options: { configuredKey?: Buffer; dataDir?: string | null }): SecretBox {
  if (options.configuredKey) return new SecretBox(options.configuredKey);
  if (!options.dataDir) return new SecretBox(randomBytes(32));
  const file = path.join(options.dataDir, SECRET_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return new SecretBox(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'));
}
