import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * The loopback receiver of the webhook bench (bench/bench-webhooks.ts), an HTTP server, and of the
 * mail bench (bench/bench-mail.ts), an SMTP server (the `smtp-server` package) that accepts every
 * message: in a child process of its own by default (a deployment's receivers are elsewhere: in
 * the worker's process their CPU is counted against the service), or in the bench's process with
 * BENCH_RECEIVER=in-process, to see that cost. An arrival is a request read and answered 204, or a
 * message's DATA read and answered 250. Arrival times are the monotonic clock (process.hrtime),
 * the same in both processes.
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

export type ReceiverProtocol = 'http' | 'smtp';

export async function startReceiver(inProcess: boolean, protocol: ReceiverProtocol = 'http'): Promise<Receiver> {
  const events = new EventEmitter();
  let send: (m: ToReceiver) => void;
  if (inProcess) {
    const handle = serveReceiver(protocol, (m) => setImmediate(() => events.emit('message', m)));
    send = handle;
  } else {
    const child = fork(__filename, ['--serve', protocol], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

/** An HTTP server answering 204 to every request, or an SMTP server taking every message; `arrived` once each is answered. */
function listen(protocol: ReceiverProtocol, arrived: () => void, listening: (port: number) => void): { close(done: () => void): void } {
  if (protocol === 'smtp') {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          arrived();
          callback();
        });
      },
    });
    smtp.on('error', () => undefined);
    smtp.listen(0, '127.0.0.1', () => listening((smtp.server.address() as AddressInfo).port));
    return { close: (done) => smtp.close(done) };
  }
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived();
      res.writeHead(204).end();
    });
  });
  receiver.keepAliveTimeout = 0;
  receiver.listen(0, '127.0.0.1', () => listening((receiver.address() as AddressInfo).port));
  return {
    close: (done) => {
      receiver.closeAllConnections();
      receiver.close(() => done());
    },
  };
}

function serveReceiver(protocol: ReceiverProtocol, reply: (m: FromReceiver) => void): (m: ToReceiver) => void {
  let arrivals: number[] = [];
  let expected = Infinity;
  const server = listen(
    protocol,
    () => {
      arrivals.push(monotonicMs());
      if (arrivals.length === expected) {
        reply({ arrivals });
        arrivals = [];
        expected = Infinity;
      }
    },
    (port) => reply({ listening: port }),
  );
  return (m) => {
    if ('expect' in m) {
      expected = m.expect;
      if (arrivals.length >= expected) {
        reply({ arrivals });
        arrivals = [];
        expected = Infinity;
      }
    } else {
      server.close(() => reply({ closed: true }));
    }
  };
}

if (require.main === module && process.argv.includes('--serve')) {
  // once closed, the channel goes too and the process ends
  const handle = serveReceiver(process.argv.includes('smtp') ? 'smtp' : 'http', (m) => process.send!(m, () => 'closed' in m && process.disconnect()));
  process.on('message', (m) => handle(m as ToReceiver));
}
