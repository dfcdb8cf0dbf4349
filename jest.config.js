/** Each project is a folder of tests/; the database under test comes from the environment (see scripts/test.mjs). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  setupFiles: ['reflect-metadata'],
  testTimeout: 60000,
};
