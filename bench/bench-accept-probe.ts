import net from 'node:net';

/**
 * How many waiting connections Node.js accepts per turn of a busy event loop (`npm run bench`
 * prints it beside the 200-connection figures): 200 connections are opened at once while every
 * turn is kept busy for 20 ms. Measured on Node.js 20 (libuv 1.46) and 24 (libuv 1.52): about one
 * a turn, so on a saturated server the N-th new connection's first request waits N turns.
 */
const CONNECTIONS = 200;
const TURNS = 50;
const BUSY_MS = 20;

export function acceptsPerBusyTurn(): Promise<number> {
  return new Promise((resolve) => {
    let accepted = 0;
    const server = net.createServer((socket) => {
      accepted += 1;
      socket.destroy();
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      let clients: net.Socket[] = [];
      let turns = 0;
      const busyTurn = () => {
        // opened inside a busy turn: the handshakes complete in the kernel, the accepting waits for the loop
        if (turns === 0) clients = Array.from({ length: CONNECTIONS }, () => net.connect(port, '127.0.0.1').on('error', () => undefined));
        const started = Date.now();
        while (Date.now() - started < BUSY_MS);
        turns += 1;
        if (turns < TURNS && accepted < CONNECTIONS) return void setImmediate(busyTurn);
        for (const client of clients) client.destroy();
        server.close();
        resolve(accepted / turns);
      };
      setImmediate(busyTurn);
    });
  });
}
