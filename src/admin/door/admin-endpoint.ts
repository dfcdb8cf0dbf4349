import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response, type Router } from 'express';
import { AppError, mapAppError } from '../../errors';
import { jsonErrorHandler, notFoundHandler } from '../../doors/http/http-errors';
import { answerHeaders } from '../../doors/http/request-id';
import type { Logger } from '../../logger';
import { type AdminDeps, runAdminCommand } from '../commands/admin-commands';
import { newAdminToken, PROGRESS_STREAM } from './admin-endpoint-file';

/* The loopback admin endpoint a running server answers the admin CLI on. */

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function tokenMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A long command (replay) answers in NDJSON (PROGRESS_STREAM) when the CLI asks for it: a line per step as it
 * happens, then `{"result": …}` or `{"error": …}`. The first step decides the status: a command
 * refused at once (bad dates) is still an ordinary error answer.
 */
async function streamProgress(res: Response, run: (onProgress: (progress: object) => void) => Promise<object>): Promise<void> {
  const write = (line: object) => {
    if (!res.headersSent) res.status(200).type(PROGRESS_STREAM);
    res.write(`${JSON.stringify(line)}\n`);
  };
  try {
    const result = await run((progress) => write({ progress }));
    write({ result });
  } catch (error) {
    if (!res.headersSent) throw error;
    write({ error: mapAppError(error).detail });
  }
  res.end();
}

/** The server's admin listener (see admin-endpoint-file.ts for who may use it and how it is found). */
export function adminRouter(token: string, deps: AdminDeps): Router {
  const router = express.Router();
  router.post('/commands/:command', express.json({ limit: '10kb' }), async (req, res, next) => {
    try {
      if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) throw new AppError('NOT_FOUND', `No such endpoint: ${req.method} ${req.path}`);
      const presented = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!tokenMatches(presented, token)) throw new AppError('UNAUTHENTICATED', 'Invalid admin token');
      const command = String(req.params.command);
      const args = (req.body ?? {}) as Record<string, unknown>;
      if (req.headers.accept === PROGRESS_STREAM) await streamProgress(res, (onProgress) => runAdminCommand(deps, command, args, onProgress));
      else res.json(await runAdminCommand(deps, command, args));
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
  // the same headers as the service's own answers: a refusal echoes the path it was asked for
  app.use((req, res, next) => {
    answerHeaders(req, res);
    next();
  });
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
