#!/usr/bin/env node
// `node scripts/run.mjs src/server [ARGS]` runs dist/src/server.js in this very process, after
// compiling it when a source changed since the last build (scripts/build.mjs). npm runs scripts
// through `sh -c`, and dash does not hand its process over to the command it runs: a SIGTERM that
// npm forwards would stop the shell and leave node running. So package.json says
// `exec node scripts/run.mjs …`: npm → node is the whole chain, and signals reach the server.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, ROOT } from './build.mjs';

const { engines } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const minimumMajor = Number(/^>=\s*(\d+)/.exec(engines.node)[1]);
if (Number(process.versions.node.split('.')[0]) < minimumMajor) {
  process.stderr.write(`bill-progress needs Node.js ${minimumMajor} or newer (${engines.node}; tested on 20, 22 and 24); this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}

// --despite-type-errors: for the schema emitter (see build() in build.mjs)
const despiteTypeErrors = process.argv[2] === '--despite-type-errors';
const [entry, ...args] = process.argv.slice(despiteTypeErrors ? 3 : 2);
if (!entry) {
  process.stderr.write('usage: node scripts/run.mjs [--despite-type-errors] <entry under dist/, e.g. src/server> [args]\n');
  process.exit(1);
}
buildIfStale({ despiteTypeErrors });
const script = path.join(ROOT, 'dist', `${entry}.js`);
// the entry reads its own arguments as if node had been started on it
process.argv = [process.argv[0], script, ...args];
await import(pathToFileURL(script).href);
