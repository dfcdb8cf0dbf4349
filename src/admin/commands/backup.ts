import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { badInput } from '../../errors';

/* The `backup` command: the embedded database written to a file. */

export const USE_PG_TOOLS = 'backup and restore are for the embedded database; with DATABASE_URL use pg_dump and pg_restore (see docs/admin.md)';

/**
 * Writes the embedded database to `file` (a gzipped tar of its data directory). The file holds
 * accounts and key hashes: it is made readable by its owner only, and appears whole or not at all.
 */
export async function writeBackup(dump: (() => Promise<Blob>) | undefined, file: string): Promise<{ backup: string; bytes: number; taken_at: string }> {
  if (!dump) throw badInput(USE_PG_TOOLS);
  if (!path.isAbsolute(file)) throw badInput('--to must be an absolute path');
  const takenAt = new Date().toISOString();
  const bytes = Buffer.from(await (await dump()).arrayBuffer());
  const draft = `${file}.${randomBytes(4).toString('hex')}.partial`;
  try {
    writeFileSync(draft, bytes, { mode: 0o600 });
    renameSync(draft, file);
  } catch (error) {
    rmSync(draft, { force: true });
    throw badInput(`cannot write the backup to ${file}: ${(error as Error).message}`);
  }
  return { backup: file, bytes: bytes.length, taken_at: takenAt };
}
