import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSecretBox, SECRET_KEY_FILE, SecretBox } from '../../../../../src/events/webhooks/secret-box';

describe('webhook secrets at rest', () => {
  it('are sealed (not readable in the stored value) and opened with the same key', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('whsec_c2VjcmV0');
    expect(sealed).not.toContain('c2VjcmV0');
    expect(box.seal('whsec_c2VjcmV0')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('whsec_c2VjcmV0');
  });

  it('refuse another key with a clear error, and a tampered value', () => {
    const sealed = new SecretBox(randomBytes(32)).seal('whsec_x');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(/sealed with another key/);
    const box = new SecretBox(randomBytes(32));
    const parts = box.seal('whsec_abcdef').split('.');
    parts[4] = Buffer.from('whsec_abcdeg').toString('base64');
    expect(() => box.open(parts.join('.'))).toThrow();
  });

  it('are opened once and then kept opened; a changed value is opened anew and still refused', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('whsec_ab');
    expect(box.open(sealed)).toBe('whsec_ab');
    expect(box.open(sealed)).toBe('whsec_ab');
    const parts = sealed.split('.');
    parts[4] = Buffer.from('whsec_ac').toString('base64');
    expect(() => box.open(parts.join('.'))).toThrow();
  });

  it('keep their key in a file of DATA_DIR readable by the owner alone, the same across restarts', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-key-'));
    const sealed = loadSecretBox({ dataDir: dir }).seal('whsec_y');
    expect(statSync(path.join(dir, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path.join(dir, SECRET_KEY_FILE), 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(loadSecretBox({ dataDir: dir }).open(sealed)).toBe('whsec_y');
  });
});
