import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  /** the path (and query) it was sent to */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with a request: answer a status, hang (never answer), or run custom code. */
export type Behaviour = number | 'hang' | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

/**
 * A webhook receiver on 127.0.0.1 and an ephemeral port, recording every request; `next` lists
 * how the next requests are answered (then `otherwise`, 200 by default).
 */
export async function startReceiver(otherwise: Behaviour = 200) {
  const received: ReceivedWebhook[] = [];
  const next: Behaviour[] = [];
  const hanging = new Set<http.ServerResponse>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body, at: performance.now() });
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve();
      const behaviour = next.shift() ?? otherwise;
      if (behaviour === 'hang') hanging.add(res);
      else if (typeof behaviour === 'number') res.writeHead(behaviour).end();
      else behaviour(req, res);
    });
  });
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** TCP connections accepted so far */
    get connections() {
      return connections;
    },
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    next,
    /** resolves once `count` requests have arrived */
    receivedAtLeast: (count: number) => new Promise<void>((resolve) => (received.length >= count ? resolve() : waiters.push({ count, resolve }))),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
