import { PasswordQueue } from '../../../../src/services/password-queue';

/** A job that runs until the test lets it finish. */
function heldJob(log: string[], name: string) {
  let finish!: () => void;
  const held = new Promise<void>((resolve) => (finish = resolve));
  return { finish, job: () => (log.push(`start ${name}`), held.then(() => name)) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PasswordQueue', () => {
  it('runs a fixed number of jobs at once, and a log-in queued after 20 waiting sign-ups next', async () => {
    const queue = new PasswordQueue({ concurrency: 2, maxWaiting: { verify: 5, hash: 20 } });
    const log: string[] = [];
    const running = [heldJob(log, 'first'), heldJob(log, 'second')];
    const results = running.map((r) => queue.run('hash', r.job));
    const signUps = Array.from({ length: 20 }, (_, i) => queue.run('hash', async () => (log.push(`start sign-up ${i}`), i)));
    const logIn = queue.run('verify', async () => (log.push('start log-in'), true));
    await settle();
    expect(log).toEqual(['start first', 'start second']);
    expect(queue.waitingCount).toEqual({ verify: 1, hash: 20 });
    running[0].finish();
    await expect(logIn).resolves.toBe(true);
    expect(log.slice(0, 3)).toEqual(['start first', 'start second', 'start log-in']);
    running[1].finish();
    await Promise.all([...results, ...signUps]);
    // then the sign-ups, in the order they came
    expect(log.slice(3)).toEqual(Array.from({ length: 20 }, (_, i) => `start sign-up ${i}`));
  });

  it('refuses a sign-up at once with 503, a detail and Retry-After when its line is full; log-ins still queue', async () => {
    const queue = new PasswordQueue({ concurrency: 1, maxWaiting: { verify: 1, hash: 2 } });
    const log: string[] = [];
    const running = heldJob(log, 'running');
    const first = queue.run('hash', running.job);
    const waiting = [queue.run('hash', async () => 1), queue.run('hash', async () => 2)];
    const refused = await queue.run('hash', async () => 3).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'Retry-After': '5' }, message: expect.stringMatching(/too many sign-ups and password changes are waiting/) });
    const logIn = queue.run('verify', async () => 'in');
    await expect(queue.run('verify', async () => 'more')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/too many log-ins are waiting/) });
    running.finish();
    await expect(Promise.all([first, logIn, ...waiting])).resolves.toEqual(['running', 'in', 1, 2]);
  });

  it('frees a job’s place when it fails', async () => {
    const queue = new PasswordQueue({ concurrency: 1, maxWaiting: { verify: 0, hash: 1 } });
    const failing = queue.run('hash', async () => Promise.reject(new Error('scrypt failed')));
    const next = queue.run('hash', async () => 'next');
    await expect(failing).rejects.toThrow('scrypt failed');
    await expect(next).resolves.toBe('next');
  });

  it('holds a place in the line for a job that comes after other work, refusing at once when the line is full', async () => {
    const queue = new PasswordQueue({ concurrency: 1, maxWaiting: { verify: 1, hash: 2 } });
    const log: string[] = [];
    const running = heldJob(log, 'running');
    const first = queue.run('hash', running.job);
    const held = [queue.hold('hash'), queue.hold('hash')];
    // the held places fill the line: a third is refused, and so is a job sent straight away
    expect(() => queue.hold('hash')).toThrow(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }));
    await expect(queue.run('hash', async () => 'straight')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    // a log-in has a line of its own
    const logIn = queue.run('verify', async () => 'in');
    // a place given up is free again; a place used runs its job in turn
    held[1].release();
    held[1].release();
    const third = queue.hold('hash');
    const jobs = [held[0].run(async () => 'held'), third.run(async () => 'third')];
    running.finish();
    await expect(Promise.all([first, logIn, ...jobs])).resolves.toEqual(['running', 'in', 'held', 'third']);
    expect(() => queue.hold('hash').release()).not.toThrow();
  });
});
