#!/usr/bin/env node
// Prints what an explanation costs and how much it depends on the training seed, on the shipped
// data with the served model's training options. Run after `npm run build`:
//   node scripts/explain-timing.mjs            # one model: ms per explanation of every live bill
//   node scripts/explain-timing.mjs --seeds    # and a second seed: top factors compared
//   node scripts/explain-timing.mjs --bill 2900 # and that bill's explanation on the snapshot date
// A print, not a test: timings depend on the machine and its load; training takes a minute a seed.
import { createRequire } from 'node:module';
import os from 'node:os';

const require = createRequire(import.meta.url);
const { loadConfig } = require('../dist/src/config');
const { loadSnapshotTrainingData } = require('../dist/src/services/training-data');
const { trainModel } = require('../dist/src/model/train/train');
const { Predictor } = require('../dist/src/model/serve/predictor');
const { billAsOf } = require('../dist/src/model/serve/truncate');
const { EXPLAINED_OUTPUTS } = require('../dist/src/model/serve/explain');

const { bills, sessions, asOf } = await loadSnapshotTrainingData(loadConfig({}).snapshotDir);
const DATES = ['2015-02-28', '2018-06-30', asOf];
const cases = DATES.flatMap((date) => bills.filter((b) => b.facts.introducedDate && b.facts.introducedDate <= date && billAsOf(b.facts, date, sessions).state.status === 'live').map((bill) => ({ bill, date })));
const train = (seed) => new Predictor(trainModel({ bills, sessions }, { cutoff: asOf, seed }));

const first = train(20211231);
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} CPUs; ${cases.length} live bills on ${DATES.join(', ')}`);
const times = [];
// the fastest of three runs of each: what an explanation costs when the machine is not busy elsewhere
const explained = cases.map(({ bill, date }) => {
  let fastest = Infinity;
  let e;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    e = first.explain(bill.facts, date, sessions);
    fastest = Math.min(fastest, performance.now() - started);
  }
  times.push(fastest);
  return e;
});
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
console.log(`ms per explanation (fastest of 3 runs): median ${at(0.5)}, 90th percentile ${at(0.9)}, max ${at(1)}`);

const billArg = process.argv.indexOf('--bill');
if (billArg > 0) {
  const bill = bills.find((b) => b.facts.billId === Number(process.argv[billArg + 1]));
  console.log(JSON.stringify({ probabilities: first.nowcast(bill.facts, asOf, sessions).probabilities, explanations: first.explain(bill.facts, asOf, sessions) }, null, 1));
}

if (process.argv.includes('--seeds')) {
  const second = train(7);
  let compared = 0;
  let same = 0;
  const gaps = [];
  cases.forEach(({ bill, date }, i) => {
    const b = second.explain(bill.facts, date, sessions);
    for (const output of EXPLAINED_OUTPUTS) {
      const top = explained[i][output][0];
      if (!top || Math.abs(top.effect) < 0.02) continue;
      compared++;
      if (b[output][0]?.factor === top.factor) same++;
      for (const f of explained[i][output]) gaps.push(Math.abs(f.effect - (b[output].find((g) => g.factor === f.factor)?.effect ?? 0)));
    }
  });
  gaps.sort((a, b) => a - b);
  const gap = (q) => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))].toFixed(3);
  console.log(`seeds 20211231 and 7: top factor the same for ${same} of ${compared} explanations whose top effect is 0.02 or more (${((100 * same) / compared).toFixed(1)}%)`);
  console.log(`change of a factor's effect between the seeds: median ${gap(0.5)}, 90th percentile ${gap(0.9)}, max ${gap(1)}`);
}
