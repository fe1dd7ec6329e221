import { defineConfig } from 'vitest/config';

/**
 * The fault cases too slow for `npm test` (they wait out real leases and
 * heartbeats): `npm run stress` runs them once per pass, after its index
 * scenarios. `npm test` keeps one case of each fault class.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
