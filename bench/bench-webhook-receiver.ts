import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The loopback receiver of the webhook bench (bench/bench-webhooks.ts): in a child process of
 * its own by default (a deployment's receivers are elsewhere: in the worker's process their CPU
 * is counted against the service), or in the bench's process with BENCH_RECEIVER=in-process, to
 * see that cost. Arrival times are the monotonic clock (process.hrtime), the same in both processes.
 */
type ToReceiver = { expect: number } | { close: true };
type FromReceiver = { listening: number } | { arrivals: number[] } | { closed: true };

export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

export interface Receiver {
  port: number;
  where: 'child process' | 'in-process';
  /** the arrival times of the next `count` requests, once they have all come */
  arrivals(count: number): Promise<number[]>;
  close(): Promise<void>;
}

export async function startReceiver(inProcess: boolean): Promise<Receiver> {
  const events = new EventEmitter();
  let send: (m: ToReceiver) => void;
  if (inProcess) {
    const handle = serveReceiver((m) => setImmediate(() => events.emit('message', m)));
    send = handle;
  } else {
    const child = fork(__filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (m) => events.emit('message', m));
    send = (m) => void child.send(m);
  }
  const reply = <K extends string>(key: K) => new Promise<Extract<FromReceiver, Record<K, unknown>>>((resolve) => {
    const listener = (m: FromReceiver) => {
      if (key in m) {
        events.off('message', listener);
        resolve(m as Extract<FromReceiver, Record<K, unknown>>);
      }
    };
    events.on('message', listener);
  });
  const { listening } = await reply('listening');
  return {
    port: listening,
    where: inProcess ? 'in-process' : 'child process',
    arrivals: async (count) => {
      const answer = reply('arrivals');
      send({ expect: count });
      return (await answer).arrivals;
    },
    close: async () => {
      const answer = reply('closed');
      send({ close: true });
      await answer;
    },
  };
}

function serveReceiver(reply: (m: FromReceiver) => void): (m: ToReceiver) => void {
  let arrivals: number[] = [];
  let expected = Infinity;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(monotonicMs());
      res.writeHead(204).end();
      if (arrivals.length === expected) {
        reply({ arrivals });
        arrivals = [];
        expected = Infinity;
      }
    });
  });
  receiver.keepAliveTimeout = 0;
  receiver.listen(0, '127.0.0.1', () => reply({ listening: (receiver.address() as AddressInfo).port }));
  return (m) => {
    if ('expect' in m) {
      expected = m.expect;
      if (arrivals.length >= expected) {
        reply({ arrivals });
        arrivals = [];
        expected = Infinity;
      }
    } else {
      receiver.closeAllConnections();
      receiver.close(() => reply({ closed: true }));
    }
  };
}

if (require.main === module && process.argv.includes('--serve')) {
  // once closed, the channel goes too and the process ends
  const handle = serveReceiver((m) => process.send!(m, () => 'closed' in m && process.disconnect()));
  process.on('message', (m) => handle(m as ToReceiver));
}
