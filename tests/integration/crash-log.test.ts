import { spawnSync } from 'node:child_process';
import path from 'node:path';

// The server's crash handling (src/shutdown.ts exitOnCrash, installed by src/server.ts) as built
// (npm test builds first), in a process of its own that crashes on purpose: no request can reach
// the crash. Its standard output is a pipe, so the logger writes asynchronously, as in a container.
const DIST = path.resolve(__dirname, '..', '..', 'dist', 'src');
const crashingWith = (crash: string) => `
  const { createLogger, standardOutput } = require(${JSON.stringify(path.join(DIST, 'logger.js'))});
  const { exitOnCrash } = require(${JSON.stringify(path.join(DIST, 'shutdown.js'))});
  const logger = createLogger('info', standardOutput());
  exitOnCrash({ logger });
  for (let i = 0; i < 2000; i++) logger.info({ i }, 'busy');
  setTimeout(() => { ${crash} }, 10);
  setTimeout(() => logger.info('still running'), 2000);
`;

function run(crash: string) {
  const child = spawnSync(process.execPath, ['-e', crashingWith(crash)], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  const lines = child.stdout.toString().trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
  return { status: child.status, lines, stderr: child.stderr.toString() };
}

describe('a crash of the server process', () => {
  it('on an uncaught exception: one fatal line with the error and its stack, every line before it written, then exit 1', () => {
    const { status, lines, stderr } = run(`throw Object.assign(new Error('boom'), { token: 'bp_secret_value' });`);
    expect(status).toBe(1);
    expect(lines.filter((l) => l.msg === 'busy')).toHaveLength(2000);
    const fatal = lines.filter((l) => l.level === 60);
    expect(fatal).toEqual([expect.objectContaining({ msg: 'uncaught exception: exiting', err: expect.objectContaining({ type: 'Error', message: 'boom', stack: expect.stringMatching(/^Error: boom\n\s+at /) }) })]);
    expect(lines.at(-1)).toBe(fatal[0]);
    expect(JSON.stringify(lines)).not.toContain('bp_secret_value');
    expect(stderr).toBe('');
  });

  it('on an unhandled rejection: the same, and nothing runs after it', () => {
    const { status, lines } = run(`Promise.reject(new TypeError('lost'));`);
    expect(status).toBe(1);
    expect(lines.filter((l) => l.level === 60)).toEqual([expect.objectContaining({ msg: 'unhandled promise rejection: exiting', err: expect.objectContaining({ type: 'TypeError', message: 'lost', stack: expect.stringContaining('TypeError: lost') }) })]);
    expect(lines.some((l) => l.msg === 'still running')).toBe(false);
  });
});
