import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: more workers only add contention on SQLite files and the PostgreSQL server.
    maxWorkers: 2,
    // In CI a failed test runs once more, so one timing flake under a loaded machine does not
    // stop a landing; .ci/run names every test that needed the second run, with its first
    // failure, at the end of its output — a flake is a bug to mend, not to live with.
    retry: process.env.CI === 'true' ? 1 : 0,
  },
});
