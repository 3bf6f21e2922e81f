import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Hang guards, not speed limits: a loaded 2-core machine runs a test many times slower than an idle one.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
