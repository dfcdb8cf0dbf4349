import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Router } from 'express';
import { AppError } from '../errors';
import { jsonErrorHandler, notFoundHandler } from '../http-errors';
import type { Logger } from '../logger';
import { type AdminDeps, runAdminCommand } from './admin-commands';

/**
 * While a server holds an embedded database no other process may open it, so the admin CLI and
 * `npm run sync` ask the server to act for them. The server writes where it listens and a fresh
 * token to this file (mode 0600) in DATA_DIR; only someone who can read the data directory can
 * use the endpoint, and only from this machine: it has a listener of its own on the loopback
 * interface, whatever HOST the public server binds.
 */
export const ADMIN_ENDPOINT_FILE = 'admin-endpoint.json';

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

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function tokenMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function adminRouter(token: string, deps: AdminDeps): Router {
  const router = express.Router();
  router.post('/commands/:command', express.json({ limit: '10kb' }), async (req, res, next) => {
    try {
      if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) throw new AppError('NOT_FOUND', `No such endpoint: ${req.method} ${req.path}`);
      const presented = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!tokenMatches(presented, token)) throw new AppError('UNAUTHENTICATED', 'Invalid admin token');
      res.json(await runAdminCommand(deps, String(req.params.command), (req.body ?? {}) as Record<string, unknown>));
    } catch (error) {
      next(error);
    }
  });
  return router;
}

export interface AdminEndpoint {
  url: string;
  token: string;
  close(): Promise<void>;
}

export async function startAdminEndpoint(deps: AdminDeps, logger: Logger): Promise<AdminEndpoint> {
  const token = newAdminToken();
  const app = express();
  app.disable('x-powered-by');
  app.use('/admin', adminRouter(token, deps));
  app.use(notFoundHandler);
  app.use(jsonErrorHandler(logger));
  const server = http.createServer(app);
  // A sync of the live API can take minutes: the CLI waits for its answer.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
