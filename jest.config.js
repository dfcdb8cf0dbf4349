/** Each project is a folder of tests/; the database under test comes from the environment (see scripts/test.mjs). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  setupFiles: ['reflect-metadata'],
  // A file's setup trains a model and starts servers: about 10 s on a quiet machine, over 60 s when the
  // 2 cores are shared (load average 15-19 measured), which failed hooks that were not failing.
  testTimeout: 180000,
};
