import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerHeaders } from './request-id';
import type { Readiness } from '../../health/readiness';
import type { HeldPort } from '../../db/open-served-database';

/**
 * What answers on the service's port while a dependency it cannot start without (PostgreSQL) is
 * unreachable: /healthz 200 (the process is alive), /readyz and every other path a 503
 * `{"detail"}` naming what is missing, so a client or an orchestrator sees why instead of a refused
 * connection. The real app takes the port over when the dependency is back.
 */
export async function listenNotReady(port: number, host: string, readiness: Readiness): Promise<HeldPort> {
  const server = http.createServer((req, res) => {
    answerHeaders(req, res);
    const path = (req.url ?? '/').split('?')[0];
    const reasons = readiness.reasons().join('; ');
    const [status, body] =
      path === '/healthz' ? [200, { status: 'ok' }] : path === '/readyz' ? [503, { detail: `Not ready: ${reasons}` }] : [503, { detail: `Service unavailable: ${reasons}` }];
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...(status === 503 ? { 'retry-after': '5' } : {}) });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
