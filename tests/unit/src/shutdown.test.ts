import { EventEmitter } from 'node:events';
import pino from 'pino';
import { REQUEST_DRAIN_MS } from '../../../src/doors/graphql-http/apollo.adapter';
import { SHUTDOWN_DEADLINE_MS, SIGNAL_ECHO_MS, shutDownOnSignals } from '../../../src/shutdown';

/** Signals through a stand-in for the process; real signals to real processes are in tests/e2e/server-process.test.ts. */
function setUp(close: () => Promise<void>) {
  const target = new EventEmitter();
  const exits: number[] = [];
  shutDownOnSignals({ close, logger: pino({ level: 'silent' }), target: target as unknown as NodeJS.Process, exit: (code) => exits.push(code) });
  return { target, exits };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('exits 0 once the shutdown has finished', async () => {
  const close = jest.fn(() => Promise.resolve());
  const { target, exits } = setUp(close);
  target.emit('SIGTERM', 'SIGTERM');
  await jest.advanceTimersByTimeAsync(0);
  expect(close).toHaveBeenCalledTimes(1);
  expect(exits).toEqual([0]);
});

it('exits 1 when the shutdown hangs past the deadline', async () => {
  const { target, exits } = setUp(() => new Promise(() => {}));
  target.emit('SIGINT', 'SIGINT');
  await jest.advanceTimersByTimeAsync(SHUTDOWN_DEADLINE_MS - 1);
  expect(exits).toEqual([]);
  await jest.advanceTimersByTimeAsync(1);
  expect(exits).toEqual([1]);
});

it('exits 1 when the shutdown fails', async () => {
  const { target, exits } = setUp(() => Promise.reject(new Error('database gone')));
  target.emit('SIGTERM', 'SIGTERM');
  await jest.advanceTimersByTimeAsync(0);
  expect(exits).toEqual([1]);
});

it('takes a repeat of the same signal right away as its echo (Ctrl-C under npm), and a later one as a demand to exit at once', async () => {
  const close = jest.fn(() => new Promise<void>(() => {}));
  const { target, exits } = setUp(close);
  target.emit('SIGINT', 'SIGINT');
  target.emit('SIGINT', 'SIGINT');
  expect(exits).toEqual([]);
  await jest.advanceTimersByTimeAsync(SIGNAL_ECHO_MS);
  target.emit('SIGINT', 'SIGINT');
  expect(exits).toEqual([130]);
  expect(close).toHaveBeenCalledTimes(1);
});

it('exits at once on a different second signal, with 128 + its number', () => {
  const { target, exits } = setUp(() => new Promise(() => {}));
  target.emit('SIGINT', 'SIGINT');
  target.emit('SIGTERM', 'SIGTERM');
  expect(exits).toEqual([143]);
});

it('cuts hanging requests off early enough to flush counters and close the database within the deadline', () => {
  expect(SHUTDOWN_DEADLINE_MS - REQUEST_DRAIN_MS).toBeGreaterThanOrEqual(2_000);
});
