import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * The subscribers of the subscriptions bench (bench/bench-subscriptions.ts): graphql-ws clients
 * over real WebSockets, in a child process of their own by default (a deployment's subscribers are
 * elsewhere: in the server's process their CPU is counted against the service), or in the
 * server's process with BENCH_CLIENTS=in-process, to see that cost.
 * Times are the monotonic clock (process.hrtime), the same in both processes.
 */
export type ToClients =
  | { open: { url: string; keys: string[]; perAccount: number; count: number } }
  | { batch: { ids: string[]; at: number } }
  | { unsubscribe: true }
  | { close: true };
/** `received`: every subscriber had the batch published at `at`; its latencies (ms) from `at` to each one's first event of it */
export type FromClients = { received: { at: number; latencies: number[] } } | { unsubscribed: true } | { closed: true } | { failed: string };

export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

export interface ClientPool {
  send(message: ToClients): void;
  on(listener: (message: FromClients) => void): void;
  where: 'child process' | 'in-process';
}

/** The pool: a child process running this file, or the same code in this process. */
export function clientPool(inProcess: boolean): ClientPool {
  if (inProcess) {
    const toParent = new EventEmitter();
    const handle = serveClients((m) => toParent.emit('message', m));
    return { send: handle, on: (listener) => void toParent.on('message', listener), where: 'in-process' };
  }
  const child: ChildProcess = fork(__filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('exit', (code) => code && process.stderr.write(`bench-subscriptions: the clients' process exited with ${code}\n`));
  return { send: (m) => void child.send(m), on: (listener) => void child.on('message', (m) => listener(m as FromClients)), where: 'child process' };
}

function serveClients(reply: (message: FromClients) => void): (message: ToClients) => void {
  const clients: Client[] = [];
  let disposers: (() => void)[] = [];
  let count = 0;
  // the batch each event id belongs to (by its publish time), and what each batch has had so far
  const batchOf = new Map<string, number>();
  const batches = new Map<number, { seen: Uint8Array; latencies: number[] }>();
  // receipts of events whose batch was not yet announced (the announcement and the frames race)
  let early: [number, string, number][] = [];
  const receipt = (i: number, id: string, at: number) => {
    const published = batchOf.get(id);
    if (published === undefined) return void early.push([i, id, at]);
    const batch = batches.get(published)!;
    if (batch.seen[i]) return;
    batch.seen[i] = 1;
    batch.latencies.push(at - published);
    if (batch.latencies.length === count) reply({ received: { at: published, latencies: batch.latencies } });
  };
  return (message) => {
    if ('open' in message) {
      const { url, keys, perAccount } = message.open;
      count = message.open.count;
      for (let i = clients.length; i < count; i++) {
        clients.push(createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${keys[Math.floor(i / perAccount)]}` }, retryAttempts: 0, lazy: false }));
      }
      disposers = clients.map((client, i) =>
        client.subscribe<{ events: { id: string } }>(
          { query: 'subscription { events { id } }' },
          {
            next: (r) => r.data?.events.id && receipt(i, r.data.events.id, monotonicMs()),
            error: (error) => reply({ failed: `subscriber ${i}: ${JSON.stringify(error)}` }),
            complete: () => undefined,
          },
        ),
      );
    } else if ('batch' in message) {
      const { ids, at } = message.batch;
      for (const id of ids) batchOf.set(id, at);
      batches.set(at, { seen: new Uint8Array(count), latencies: [] });
      const waiting = early;
      early = [];
      for (const [i, id, t] of waiting) receipt(i, id, t);
    } else if ('unsubscribe' in message) {
      for (const dispose of disposers) dispose();
      disposers = [];
      batchOf.clear();
      batches.clear();
      early = [];
      reply({ unsubscribed: true });
    } else {
      void Promise.all(clients.map((c) => c.dispose())).then(() => reply({ closed: true }));
    }
  };
}

if (require.main === module && process.argv.includes('--serve')) {
  // once the clients are closed, the channel goes too and the process ends
  const handle = serveClients((m) => process.send!(m, () => 'closed' in m && process.disconnect()));
  process.on('message', (m) => handle(m as ToClients));
}
