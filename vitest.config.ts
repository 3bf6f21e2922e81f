import { defineConfig } from 'vitest/config';

/** Files that replace a module (vi.mock) need a module graph of their own. */
const MOCKING = ['test/walk/errors.test.ts'];

const shared = {
  globalSetup: ['test/global-setup.ts'],
  // Hang guards, not speed limits: a loaded 2-core machine runs a test many times slower than an idle one.
  testTimeout: 120_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    pool: 'forks',
    // vitest's default is one fork fewer than the cores: one on a 2-core machine, where
    // most test time is spent waiting on the children a test spawns (CLIs, servers,
    // PostgreSQL, Chromium). Three forks overlap that waiting; no test depends on an idle machine.
    maxWorkers: 3,
    projects: [
      // A fork keeps its modules from one file to the next: the engine, tree-sitter and the model
      // load once per fork instead of once per file.
      { test: { ...shared, name: 'shared', include: ['test/**/*.test.ts'], exclude: MOCKING, isolate: false } },
      { test: { ...shared, name: 'isolated', include: MOCKING, isolate: true } },
    ],
  },
});
