#!/usr/bin/env node
// `npm run build` compiles src/ (and the folders tsconfig.build.json includes) to dist/, and
// builds the account dashboard (web/, Vite) into dist/dashboard; with
// --if-stale (npm ci's `prepare`, every `npm start` before it runs the server, and `npm run admin` through scripts/run.mjs)
// it compiles only when a source is newer than the last build, so a command starts in well
// under a second when nothing changed.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSCONFIG = path.join(ROOT, 'tsconfig.build.json');
/** Touched after every successful build, with the time the build started. */
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
/** The dashboard's sources: a single-page app with its own tsconfig and Vite config. */
const WEB = path.join(ROOT, 'web');

/** The newest modification time among the build's inputs: tsconfig files, and every file and folder they include. */
function newestSourceMtime() {
  const { include } = JSON.parse(readFileSync(TSCONFIG, 'utf8'));
  let newest = Math.max(statSync(TSCONFIG).mtimeMs, statSync(path.join(ROOT, 'tsconfig.json')).mtimeMs);
  const visit = (dir) => {
    // a folder's own mtime changes when a file is added, removed or renamed in it
    newest = Math.max(newest, statSync(dir).mtimeMs);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of include) visit(path.join(ROOT, dir));
  visit(WEB);
  return newest;
}

export function isStale() {
  try {
    return newestSourceMtime() > statSync(STAMP).mtimeMs;
  } catch {
    return true;
  }
}

/**
 * Runs tsc; exits the process with tsc's status when it fails. `despiteTypeErrors`: for the schema
 * emitter, whose output the type errors may be about (the generated types a new field needs): tsc
 * still writes the JavaScript, the emitter runs on it, and the build is left stale (no dashboard,
 * no stamp) so that the next one checks again.
 */
export function build(reason = 'building', { despiteTypeErrors = false } = {}) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write('bill-progress: TypeScript is not installed, so dist/ cannot be built: run `npm ci` (with dev dependencies).\n');
    process.exit(1);
  }
  const started = new Date();
  process.stderr.write(`bill-progress: ${reason}: tsc -p tsconfig.build.json\n`);
  const result = spawnSync(process.execPath, [tsc, '-p', TSCONFIG], { stdio: 'inherit', cwd: ROOT });
  // 2: tsc found errors and wrote its output all the same (1: it wrote nothing)
  if (result.status === 2 && despiteTypeErrors) {
    process.stderr.write('bill-progress: the type errors above may be the generated files being out of date: going on with what tsc emitted; build again once they are written\n');
    return;
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
  buildDashboard(tsc);
  mkdirSync(path.dirname(STAMP), { recursive: true });
  closeSync(openSync(STAMP, 'w'));
  // edits made while tsc ran are newer than this, so the next start builds again
  utimesSync(STAMP, started, started);
}

/** Type-checks the dashboard (Vite does not), bundles it into dist/dashboard, and precompresses it. */
function buildDashboard(tsc) {
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  process.stderr.write('bill-progress: building the dashboard: tsc -p web/tsconfig.json, vite build web\n');
  for (const args of [[tsc, '-p', path.join(WEB, 'tsconfig.json')], [vite, 'build', '--config', path.join(WEB, 'vite.config.ts')]]) {
    const step = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: ROOT });
    if (step.status !== 0) process.exit(step.status ?? 1);
  }
  // brotli and gzip variants beside each text file, sent by the server to browsers that accept them
  // (src/doors/http/precompress.ts, compiled by the tsc step above)
  const { precompressDirectory } = createRequire(import.meta.url)(path.join(ROOT, 'dist', 'src', 'doors', 'http', 'precompress.js'));
  const sizes = precompressDirectory(path.join(ROOT, 'dist', 'dashboard'));
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  process.stderr.write(`bill-progress: dashboard: ${sizes.files} text files, ${kb(sizes.bytes)}; brotli ${kb(sizes.br)}, gzip ${kb(sizes.gzip)}\n`);
}

export function buildIfStale(options) {
  if (isStale()) build('sources changed since the last build', options);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale')) buildIfStale();
  else build();
}
