import type http from 'node:http';
import net from 'node:net';

/**
 * Node.js accepts one waiting connection per turn of its event loop and listening socket (measured:
 * `npm run bench` prints it), so on a busy server the 200th of 200 connections opened at once
 * waits 200 turns for its first answer. Several sockets bound to the same port with SO_REUSEPORT
 * (Node.js 22.12+ and 23.1+, on Linux) each accept one a turn, and the kernel spreads new
 * connections over them. Every one of them hands its connections to the one HTTP server, which
 * serves (and drains at shutdown) them as its own. The server's close() stops them all. Elsewhere
 * (another system, or a Node.js that ignores the option and so cannot bind the extra sockets) the
 * server keeps its one socket.
 */
export interface ParallelAccept {
  /** sockets accepting on the port: 1 where SO_REUSEPORT is not available */
  acceptors: number;
}

/** Other systems refuse the option (ENOTSUP) or share the port otherwise than Linux's even spread. */
const SHARES_PORT = process.platform === 'linux';

/** `reusePort` is Node.js 22.12+'s; older versions ignore it (and @types/node 20 does not name it) */
type ListenOptions = net.ListenOptions & { reusePort?: boolean };

const listen = (server: net.Server, options: ListenOptions) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });

export async function listenAcceptingInParallel(server: http.Server, port: number, host: string, wanted: number): Promise<ParallelAccept> {
  const acceptors = SHARES_PORT ? wanted : 1;
  // A port shared with SO_REUSEPORT would also let a second server of the same user start on it and
  // take half the connections: first make sure nothing holds the port, by binding it alone.
  if (acceptors > 1 && port !== 0) {
    const probe = net.createServer();
    await listen(probe, { port, host });
    await new Promise((resolve) => probe.close(resolve));
  }
  // reusePort on the server's own socket too: the kernel shares a port only among sockets that all set it
  await listen(server, { port, host, reusePort: acceptors > 1 });
  const bound = (server.address() as net.AddressInfo).port;
  const extra: net.Server[] = [];
  for (let i = 1; i < acceptors; i++) {
    // as http.Server sets up its own sockets: Nagle off
    const acceptor = net.createServer({ noDelay: true }, (socket) => server.emit('connection', socket));
    const listening = await listen(acceptor, { port: bound, host, reusePort: true }).then(
      () => true,
      () => false,
    );
    if (!listening) break;
    extra.push(acceptor);
  }
  // The server's close() (what a drain at shutdown waits for) counts only the connections its own
  // socket accepted: it stops the other sockets too, and reports closed once theirs have ended as well.
  if (extra.length) {
    const closeServer = server.close.bind(server);
    let othersDrained: Promise<unknown> | null = null;
    server.close = (callback?: (error?: Error) => void) => {
      othersDrained ??= Promise.all(extra.map((acceptor) => new Promise((resolve) => acceptor.close(resolve))));
      const drained = othersDrained;
      return closeServer((error?: Error) => void drained.then(() => callback?.(error)));
    };
  }
  return { acceptors: 1 + extra.length };
}
