import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';

/** The real snapshot the service ships with (shared/data/uk-bills). */
export const REAL_SNAPSHOT_DIR = loadConfig({}).snapshotDir!;

/**
 * A snapshot folder holding only the named real bills (all sessions), for fast tests.
 * `edit` may change a bill's line, e.g. to add a stage, to test updates.
 */
export function makeSnapshot(billIds: number[], options: { asOf?: string; edit?: (bill: any) => any } = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-snapshot-'));
  const wanted = new Set(billIds);
  const lines = readFileSync(path.join(REAL_SNAPSHOT_DIR, 'bills.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line && wanted.has(JSON.parse(line).billId))
    .map((line) => JSON.stringify(options.edit ? options.edit(JSON.parse(line)) : JSON.parse(line)));
  writeFileSync(path.join(dir, 'bills.jsonl'), lines.join('\n') + '\n');
  writeFileSync(path.join(dir, 'sessions.json'), readFileSync(path.join(REAL_SNAPSHOT_DIR, 'sessions.json')));
  writeFileSync(path.join(dir, 'snapshot.json'), JSON.stringify({ asOf: options.asOf ?? '2021-12-31' }));
  return dir;
}

/** A handful of real bills of different kinds and fates, used across tests. */
export const SAMPLE_BILL_IDS = [26, 27, 40, 53, 144, 2900, 2950, 3089];
