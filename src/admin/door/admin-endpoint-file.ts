import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/* The file that tells the admin CLI where a running server's admin endpoint is, and its token. */

/**
 * While a server holds an embedded database no other process may open it, so the admin CLI and
 * `npm run sync` ask the server to act for them. The server writes where it listens and a fresh
 * token to this file (mode 0600) in DATA_DIR; only someone who can read the data directory can
 * use the endpoint, and only from this machine: it has a listener of its own on the loopback
 * interface, whatever HOST the public server binds.
 */
export const ADMIN_ENDPOINT_FILE = 'admin-endpoint.json';

/** The answer type of a command that reports a line per step (replay): see admin-endpoint.ts. */
export const PROGRESS_STREAM = 'application/x-ndjson';

export interface AdminEndpointInfo {
  url: string;
  token: string;
  pid: number;
}

export const newAdminToken = () => randomBytes(32).toString('base64url');

export function writeAdminEndpointFile(dataDir: string, info: AdminEndpointInfo): void {
  writeFileSync(path.join(dataDir, ADMIN_ENDPOINT_FILE), JSON.stringify(info), { mode: 0o600 });
}

export function readAdminEndpointFile(dataDir: string): AdminEndpointInfo | null {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, ADMIN_ENDPOINT_FILE), 'utf8')) as AdminEndpointInfo;
  } catch {
    return null;
  }
}

export function removeAdminEndpointFile(dataDir: string): void {
  rmSync(path.join(dataDir, ADMIN_ENDPOINT_FILE), { force: true });
}
