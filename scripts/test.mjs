#!/usr/bin/env node
// `npm test`: type-check, build (the process tests run the built server and CLI), then the suite on
// the embedded database, then again on PostgreSQL when TEST_DATABASE_URL is set (each test file
// creates and drops a database of its own there): the integration tests, and the end-to-end tests
// whose behaviour depends on the database (those that ask which one runs, use PostgreSQL or
// Redis themselves, or start the server through tests/support/live-server.ts, which asks for
// them). The other end-to-end tests check HTTP behaviour the embedded run has checked.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// --no-type-check: for a second run of the same tree (CI's run on another Node.js line), already type-checked
const typeCheck = !process.argv.includes('--no-type-check');
const jestArgs = process.argv.slice(2).filter((arg) => arg !== '--no-type-check');
const run = (title, command, args, env = process.env) => {
  process.stdout.write(`\n=== ${title}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
const withVmModules = (env) => ({ ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings=ExperimentalWarning`.trim() });

if (typeCheck) run('type-check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
run('build (when a source changed since the last one)', process.execPath, ['scripts/build.mjs', '--if-stale']);

// CI splits the runs between Node.js versions (see .ci/run): TEST_RUNS=unit,postgres or TEST_RUNS=embedded.
const runs = new Set((process.env.TEST_RUNS ?? 'embedded,postgres').split(','));
const { TEST_DATABASE_URL, DATABASE_URL, TEST_RUNS, ...embeddedEnv } = process.env;
if (runs.has('embedded')) run('tests on the embedded database (PGlite)', 'npx', ['jest', ...jestArgs], withVmModules(embeddedEnv));
// the unit tests are part of the embedded run; alone only when it is left out
else if (runs.has('unit')) run('unit tests', 'npx', ['jest', 'tests/unit', ...jestArgs], withVmModules(embeddedEnv));

if (!runs.has('postgres')) {
  // left out on purpose
} else if (TEST_DATABASE_URL) {
  const databaseDependent = readdirSync('tests/e2e')
    .map((name) => `tests/e2e/${name}`)
    .filter((file) => file.endsWith('.test.ts') && /usingPostgres\(|startLiveServer\(|TEST_DATABASE_URL|TEST_REDIS_URL/.test(readFileSync(file, 'utf8')));
  run(`tests on PostgreSQL (${TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')})`, 'npx', ['jest', 'tests/integration', ...databaseDependent, ...jestArgs], withVmModules({ ...embeddedEnv, TEST_DATABASE_URL }));
} else {
  process.stdout.write('\nTEST_DATABASE_URL is not set: the PostgreSQL run was skipped (see README).\n');
}
