#!/usr/bin/env node
// Reads a V8 .cpuprofile (node --cpu-prof, e.g. the HTTP benchmark's server under
// BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=DIR") as text: the functions and the packages or
// source files that took the most CPU by self time, and the functions whose calls (callees
// included) took the most. Idle samples are left out, so the shares are of the busy time.
//
//   node scripts/cpuprofile-summary.mjs FILE.cpuprofile [--last SECONDS] [--busiest SECONDS] [--top N] [--inclusive]
//
// A server profiled through a benchmark also spent its start (ingest, training), its idle time
// between runs and its shutdown in the same file: --last keeps only the final SECONDS, --busiest
// only the SECONDS (within those) in which it was busiest (a load run).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const file = args.find((arg, i) => !arg.startsWith('--') && !['--last', '--busiest', '--top'].includes(args[i - 1]));
if (!file) {
  process.stderr.write('usage: node scripts/cpuprofile-summary.mjs FILE.cpuprofile [--last SECONDS] [--busiest SECONDS] [--top N] [--inclusive]\n');
  process.exit(2);
}
const lastSeconds = option('--last', Infinity);
const busiestSeconds = option('--busiest', null);
const top = option('--top', 25);

const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

/** "where" of a frame: the package under node_modules, else the file under the project, else V8's own. */
function placeOf({ url }) {
  if (!url) return '(native / V8)';
  const path = url.replace(/^file:\/\//, '');
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inPackage) return inPackage[1];
  if (path.startsWith('node:')) return path;
  const inProject = /\/dist\/(.*)$/.exec(path) ?? /\/([^/]+\/[^/]+)$/.exec(path);
  return inProject ? inProject[1] : path;
}
const frameName = ({ callFrame }) => `${callFrame.functionName || '(anonymous)'} ${placeOf(callFrame)}:${callFrame.lineNumber + 1}`;

// sample times: startTime plus the running sum of the deltas
const times = [];
let clock = profile.startTime;
for (const delta of profile.timeDeltas) times.push((clock += delta));
const isIdle = (id) => nodes.get(id).callFrame.functionName === '(idle)';

/** The start of the window of `seconds` holding the most busy samples (two pointers over the sample times). */
function busiestWindow(seconds) {
  const after = profile.endTime - lastSeconds * 1e6;
  let first = times.findIndex((time) => time >= after);
  let best = { start: times[first], busy: -1 };
  let busyInWindow = 0;
  for (let i = first; i < times.length; i++) {
    if (!isIdle(profile.samples[i])) busyInWindow += 1;
    while (times[i] - times[first] > seconds * 1e6) if (!isIdle(profile.samples[first++])) busyInWindow -= 1;
    if (busyInWindow > best.busy) best = { start: times[first], busy: busyInWindow };
  }
  return best.start;
}
const from = busiestSeconds === null ? profile.endTime - lastSeconds * 1e6 : busiestWindow(busiestSeconds);
const to = busiestSeconds === null ? Infinity : from + busiestSeconds * 1e6;

const self = new Map();
const byPlace = new Map();
const inclusive = new Map();
let busy = 0;
let idle = 0;
const add = (map, key, n) => map.set(key, (map.get(key) ?? 0) + n);
profile.samples.forEach((id, i) => {
  if (times[i] < from || times[i] > to) return;
  const node = nodes.get(id);
  if (isIdle(id)) return void (idle += 1);
  busy += 1;
  add(self, frameName(node), 1);
  add(byPlace, placeOf(node.callFrame), 1);
  // each function once per sample, however deep it recurses
  const seen = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) seen.add(frameName(nodes.get(at)));
  for (const name of seen) add(inclusive, name, 1);
});

const percent = (n) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
const list = (title, map) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, n] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${percent(n)}  ${name}\n`);
};
const interval = (profile.endTime - profile.startTime) / profile.samples.length;
process.stdout.write(`${file}: ${busy} busy samples (${((busy * interval) / 1e6).toFixed(2)} s), ${idle} idle, ${busiestSeconds !== null ? `busiest ${busiestSeconds} s` : 'all'} of ${lastSeconds === Infinity ? 'the whole profile' : `the last ${lastSeconds} s`}\n`);
list('self time by function', self);
list('self time by package or source file', byPlace);
if (args.includes('--inclusive')) list('time in a function and its callees', inclusive);
