import http from 'node:http';
import net from 'node:net';
import { copiesOfListeningSocket, listenAcceptingInParallel } from '../../../../../src/doors/http/parallel-accept';

const servers: http.Server[] = [];

const serve = () => {
  const server = http.createServer((_req, res) => res.end('ok'));
  servers.push(server);
  return server;
};
const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('listenAcceptingInParallel', () => {
  it('serves every connection through the one HTTP server, accepting on 8 descriptors of its socket', async () => {
    const server = serve();
    const accept = await listenAcceptingInParallel(server, 0, '127.0.0.1', 8);
    expect(accept.acceptors).toBe(8);
    const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(`http://127.0.0.1:${portOf(server)}/`, { headers: { connection: 'close' } }).then((r) => r.text())));
    expect(answers.every((text) => text === 'ok')).toBe(true);
  });

  it('refuses a port another server holds, as a plain listen does', async () => {
    const holder = serve();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    await expect(listenAcceptingInParallel(serve(), portOf(holder), '127.0.0.1', 8)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('refuses a port a server of its own kind holds: a second instance does not quietly take half the connections', async () => {
    const first = serve();
    await listenAcceptingInParallel(first, 0, '127.0.0.1', 8);
    await expect(listenAcceptingInParallel(serve(), portOf(first), '127.0.0.1', 8)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it("the server's close() waits for the requests of every socket's connections, as a drain at shutdown relies on", async () => {
    let answered = 0;
    // connections the other sockets accepted are answered late: the server's own socket alone would report closed before them
    // (`_server`: the net.Server that accepted the socket, which http does not overwrite as it does `server`)
    const acceptedByOwnSocket = (req: http.IncomingMessage) => (req.socket as net.Socket & { _server?: net.Server })._server === server;
    const server: http.Server = http.createServer((req, res) => setTimeout(() => res.end('ok', () => (answered += 1)), acceptedByOwnSocket(req) ? 0 : 300));
    servers.push(server);
    await listenAcceptingInParallel(server, 0, '127.0.0.1', 8);
    const port = portOf(server);
    // enough connections that the kernel spreads them over the sockets
    let received = 0;
    const allReceived = new Promise<void>((resolve) => server.on('request', () => ++received === 32 && resolve()));
    const requests = Array.from({ length: 32 }, () => new Promise<void>((resolve) => http.get({ port, host: '127.0.0.1', agent: false }, (res) => res.resume().on('end', resolve)).on('error', () => resolve())));
    await allReceived;
    const closed = new Promise<number>((resolve) => server.close(() => resolve(answered)));
    expect(await closed).toBe(32);
    await Promise.all(requests);
  });

  it('accepts more than one waiting connection per turn of a busy event loop', async () => {
    const server = serve();
    let accepted = 0;
    server.on('connection', () => (accepted += 1));
    await listenAcceptingInParallel(server, 0, '127.0.0.1', 8);
    const port = portOf(server);
    const clients: net.Socket[] = [];
    const turns = 3;
    await new Promise<void>((resolve) => {
      let turn = 0;
      const busyTurn = () => {
        // opened inside a busy turn: the handshakes complete in the kernel while the loop is busy
        if (turn === 0) for (let i = 0; i < 200; i++) clients.push(net.connect(port, '127.0.0.1').on('error', () => undefined));
        const started = Date.now();
        while (Date.now() - started < 20);
        turn += 1;
        if (turn <= turns) setImmediate(busyTurn);
        else resolve();
      };
      setImmediate(busyTurn);
    });
    for (const client of clients) client.destroy();
    // one descriptor accepts one connection a turn: at most `turns` in all
    expect(accepted).toBeGreaterThan(2 * turns);
  });

  it('falls back to its one descriptor, and says why, when no copies can be made', async () => {
    await expect(copiesOfListeningSocket({}, 2)).rejects.toThrow();
    const server = serve();
    const failures: Error[] = [];
    // a system that cannot pass descriptors: the copies are refused as on such a system
    const cannotCopy = () => Promise.reject(new Error('descriptors cannot be passed here'));
    const accept = await listenAcceptingInParallel(server, 0, '127.0.0.1', 8, { onCopiesFailed: (error) => failures.push(error), copies: cannotCopy });
    expect(accept.acceptors).toBe(1);
    expect(failures).toHaveLength(1);
  });

  it('lets the port go once closed: the copies hold no descriptor of it', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await listenAcceptingInParallel(server, 0, '127.0.0.1', 8);
    const port = portOf(server);
    await new Promise((resolve) => server.close(resolve));
    const next = serve();
    await new Promise<void>((resolve, reject) => next.once('error', reject).listen(port, '127.0.0.1', resolve));
    expect(portOf(next)).toBe(port);
  });
});
