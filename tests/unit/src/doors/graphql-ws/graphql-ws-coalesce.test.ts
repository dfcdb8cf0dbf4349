import type { WebSocket } from 'ws';
import { coalesceSends } from '../../../../../src/doors/graphql-ws/graphql-ws.adapter';

/** A ws socket as coalesceSends sees it: its send, what is still unsent, and the TCP socket under it. */
function fakeSocket() {
  const log: string[] = [];
  const writes: ((err?: Error) => void)[] = [];
  const socket = {
    bufferedAmount: 0,
    _socket: { cork: () => log.push('cork'), uncork: () => log.push('uncork') },
    send: (data: string, cb?: (err?: Error) => void) => {
      log.push(`send ${data}`);
      if (cb) writes.push(cb);
    },
  };
  coalesceSends(socket as unknown as WebSocket);
  return { socket, log, writes };
}
const send = (socket: { send: unknown }, data: string) => new Promise<void>((resolve, reject) => (socket.send as (d: string, cb: (err?: Error) => void) => void)(data, (err) => (err ? reject(err) : resolve())));
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesceSends', () => {
  it('sends one after another without waiting for each write, corked until the turn ends', async () => {
    const { socket, log, writes } = fakeSocket();
    // as graphql-ws sends a subscription's messages: each after the last one's send resolved
    await send(socket, 'a');
    await send(socket, 'b');
    await send(socket, 'c');
    expect(writes).toHaveLength(0);
    expect(log).toEqual(['cork', 'send a', 'send b', 'send c']);
    await turn();
    expect(log.slice(4)).toEqual(['uncork']);
    await send(socket, 'd');
    expect(log.slice(5)).toEqual(['cork', 'send d']);
  });

  it('waits for the write again while much is unsent, so a slow reader holds its subscription back', async () => {
    const { socket, log, writes } = fakeSocket();
    socket.bufferedAmount = 1024 * 1024;
    let sent = false;
    const pending = send(socket, 'a').then(() => (sent = true));
    await turn();
    expect(sent).toBe(false);
    expect(writes).toHaveLength(1);
    writes[0]();
    await pending;
    expect(log).toContain('send a');
  });
});
