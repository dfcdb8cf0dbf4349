import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The built logger (npm test builds first), in a process of its own whose standard output is a file or a pipe.
const LOGGER = path.resolve(__dirname, '..', '..', 'dist', 'src', 'logger.js');
const script = `const { standardOutput } = require(${JSON.stringify(LOGGER)}); const out = standardOutput(); process.stderr.write(String(out.sync)); out.write('{"msg":"line"}\\n');`;

describe('the server log destination', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each line as it is made to a file, which never makes a request wait', () => {
    const file = path.join(dir, 'out.log');
    const fd = openSync(file, 'w');
    const child = spawnSync(process.execPath, ['-e', script], { stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    expect(child.stderr.toString()).toBe('true');
    expect(readFileSync(file, 'utf8')).toBe('{"msg":"line"}\n');
  });

  it('stays asynchronous to a pipe, whose reader may fall behind, and still delivers the line', () => {
    const child = spawnSync(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    expect(child.stderr.toString()).toBe('false');
    expect(child.stdout.toString()).toBe('{"msg":"line"}\n');
  });
});
