import { spawn } from 'node:child_process';
import type http from 'node:http';
import net from 'node:net';

/**
 * Node.js accepts one waiting connection per turn of its event loop and listening descriptor
 * (measured on Node.js 20 and 24: `npm run bench` prints it), so on a busy server the 200th of
 * 200 connections opened at once waits 200 turns for its first answer. The server's socket is
 * watched through several descriptors instead: copies of the one listening socket, so one accept
 * queue that each copy takes one connection from a turn. Every copy hands its connections to the
 * one HTTP server, which serves (and drains at shutdown) them as its own; the server's close()
 * stops them all. Without copies (a system that cannot pass descriptors) the server keeps its one.
 *
 * Node.js has no dup(2): a descriptor sent over an IPC channel arrives as a new one, so a
 * short-lived child is sent the socket and sends each copy back. The child never listens or
 * accepts (a raw handle, not a net.Server, is what it gets), and it exits once its channel closes.
 */
export interface ParallelAccept {
  /** descriptors accepting on the port: 1 where no copies could be made */
  acceptors: number;
}

const ECHO_HANDLES = `process.on('message', (_m, handle) => process.send('copy', handle, undefined, () => handle.close()));`;
/** a copy not back by then: the server starts on its one descriptor instead of waiting */
const COPIES_TIMEOUT_MS = 5_000;

type ListeningHandle = object;

const listen = (server: net.Server, target: net.ListenOptions | ListeningHandle) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(target, () => {
      server.off('error', reject);
      resolve();
    });
  });

/**
 * `count` new descriptors of the listening socket behind `handle`, by way of a child's IPC channel;
 * resolved once the child has exited, so no descriptor of the port outlives the server's own.
 */
export async function copiesOfListeningSocket(handle: ListeningHandle, count: number): Promise<ListeningHandle[]> {
  // the child needs none of the server's own options (NODE_OPTIONS: profilers, loaders)
  const child = spawn(process.execPath, ['-e', ECHO_HANDLES], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, NODE_OPTIONS: '' } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const copies: ListeningHandle[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`descriptor copies not back within ${COPIES_TIMEOUT_MS} ms`)), COPIES_TIMEOUT_MS);
      child.on('message', (_message, copy) => {
        copies.push(copy as ListeningHandle);
        if (copies.length === count) resolve();
      });
      child.once('error', reject);
      void exited.then(() => reject(new Error('the child making descriptor copies exited before sending them all')));
      // a raw handle travels as one: the child gets no server of its own, so never accepts a connection
      for (let i = 0; i < count; i++) child.send('listening socket', handle as net.Socket);
    });
    return copies;
  } catch (error) {
    for (const copy of copies) (copy as { close(): void }).close();
    throw error;
  } finally {
    clearTimeout(timer);
    if (child.connected) child.disconnect();
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) await exited;
  }
}

export interface ParallelAcceptOptions {
  /** told why the server accepts on its one descriptor when copies were wanted */
  onCopiesFailed?: (error: Error) => void;
  /** how the copies are made (a test stands in a system that cannot) */
  copies?: typeof copiesOfListeningSocket;
}

export async function listenAcceptingInParallel(server: http.Server, port: number, host: string, wanted: number, options: ParallelAcceptOptions = {}): Promise<ParallelAccept> {
  const { onCopiesFailed = () => undefined, copies: makeCopies = copiesOfListeningSocket } = options;
  await listen(server, { port, host });
  if (wanted <= 1) return { acceptors: 1 };
  const handle = (server as unknown as { _handle: ListeningHandle })._handle;
  const copies = await makeCopies(handle, wanted - 1).catch((error: Error) => {
    onCopiesFailed(error);
    return [];
  });
  const extra: net.Server[] = [];
  for (const copy of copies) {
    // as http.Server sets up its own sockets: Nagle off
    const acceptor = net.createServer({ noDelay: true }, (socket) => server.emit('connection', socket));
    await listen(acceptor, copy);
    extra.push(acceptor);
  }
  // The server's close() (what a drain at shutdown waits for) counts only the connections its own
  // descriptor accepted: it stops the other descriptors too, and reports closed once theirs have ended as well.
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
