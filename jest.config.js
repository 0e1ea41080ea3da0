/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: {
    // Type checking is `npm run typecheck`; tests only transpile.
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/support/databaseTemplate.ts',
  setupFiles: ['<rootDir>/test/support/env.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/support/lifecycle.ts'],
  testTimeout: 30000,
  // A failed test can leave open the server or receiver it started; CI reports the failure rather
  // than waiting on that handle until its own time runs out.
  forceExit: process.env.CI === 'true',
  // ESM test modules (--experimental-vm-modules) are never freed within one process, so a single
  // process running every file grows past Node's heap limit. A worker past this size after a file
  // is replaced; setting it also keeps jest from running the files inside its own process.
  workerIdleMemoryLimit: '1GB',
  // A worker per core, two on a 2-core machine: a file spends most of its time waiting (on the
  // database, a replica, a receiver), so two files at once overlap their waits. Each file has a
  // database and Redis keys of its own (test/support/env.ts), so none sees what another does.
  maxWorkers: '100%',
};
