import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Hang guards, not speed limits: a loaded 2-core machine runs a test many times slower than an idle one.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default is one fork fewer than the cores: one on a 2-core machine, where
    // most test time is spent waiting on the children a test spawns (CLIs, servers,
    // PostgreSQL, Chromium). Three forks overlap that waiting; no test depends on an idle machine.
    maxWorkers: 3,
  },
});
