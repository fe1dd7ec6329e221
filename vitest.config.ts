import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One line when the browser tests will be skipped (no Chromium).
    globalSetup: ['test/helpers/browser-precondition.ts'],
  },
});
