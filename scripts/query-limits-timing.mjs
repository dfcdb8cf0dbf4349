#!/usr/bin/env node
// Prints how long the checks of a GraphQL document take (guard, graphql-js validation, depth,
// cost) for the worst documents we know of, up to the 100 KB body limit. Run after `npm run build`:
//   node scripts/query-limits-timing.mjs
// A print, not a test: timings depend on the machine and its load.
import { createRequire } from 'node:module';
import os from 'node:os';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { parse, validate, specifiedRules } = require('graphql');
const { buildAppSchema } = require('../dist/src/graphql/schema');
const { depthLimit, operationCost } = require('../dist/src/query-cost');
const { documentProblem } = require('../dist/src/gateway/document-guard');

const schema = await buildAppSchema();
const aliases = (n, field) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
const doubling = (n) => {
  let text = '{ ...F0 }\n';
  for (let i = 0; i < n; i++) text += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }\n`;
  return `${text}fragment F${n} on Query { serviceStatus { today } }\n`;
};
const documents = {
  '21 nested fragments': doubling(21),
  '99 nested fragments': doubling(99),
  '500 aliases of me (3,000 tokens)': aliases(499, 'me{id}'),
  '14,000 copies of me (98 KB)': `{ ${'me{id} '.repeat(14000)} }`,
  '2,400 aliases of serviceStatus': aliases(2400, 'serviceStatus { today }'),
  '1,500 aliased title searches': aliases(1500, 'bills(first:1,filter:{titleContains:"x"}){totalCount}'),
  '20 fragments of 15 same-named fields': Array.from({ length: 20 }, (_, i) => `fragment F${i} on Query { ${'b:me{id} '.repeat(15)} }`).join(' ') + `{ ${Array.from({ length: 20 }, (_, i) => `...F${i}`).join(' ')} }`,
  'a 99 KB string argument': `{ bills(filter: {titleContains: "${'x'.repeat(99000)}"}) { totalCount } }`,
  'a page of 100 bills with relations': '{ bills(first: 100) { nodes { id title stages { stage dates } sponsors { name } divisions { date } prediction { royalAssent } } } }',
};

function check(text) {
  const problem = documentProblem(text);
  if (problem) return problem;
  const document = parse(text);
  const errors = validate(schema, document, [...specifiedRules, depthLimit()]);
  if (errors.length > 0) return errors[0].message;
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition');
  return `cost ${operationCost(schema, document, operation, { anonymous: false }).cost}`;
}

console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} CPUs; ms over 15 runs`);
for (const [name, text] of Object.entries(documents)) {
  const times = [];
  let outcome;
  for (let run = 0; run < 15; run++) {
    const started = performance.now();
    outcome = check(text);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${name} (${text.length} B): min ${times[0].toFixed(1)}, median ${times[7].toFixed(1)}, max ${times[14].toFixed(1)} — ${outcome.slice(0, 90)}`);
}
