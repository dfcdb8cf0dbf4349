import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MIN_NODE_MAJOR, unsupportedNodeMessage } from '../../../../src/common/node-version';

it('refuses a Node.js older than the oldest supported line, saying which it needs', () => {
  expect(unsupportedNodeMessage('18.20.4')).toBe('bill-progress needs Node.js 20 or newer (tested on 20, 22 and 24); this is Node.js 18.20.4.');
  expect(unsupportedNodeMessage('v16.0.0')).toMatch(/needs Node.js 20 or newer/);
});

it('accepts the supported lines', () => {
  for (const version of ['20.0.0', '22.15.0', '24.1.0', '25.0.0']) expect(unsupportedNodeMessage(version)).toBeNull();
});

it('agrees with package.json engines, which npm and scripts/run.mjs read', () => {
  const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));
  expect(pkg.engines.node).toBe(`>=${MIN_NODE_MAJOR}`);
});
