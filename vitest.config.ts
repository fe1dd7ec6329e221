import { configDefaults, defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './test/helpers/slowest-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The slow fault cases run in `npm run stress` (vitest.faults.config.ts), not in `npm test`.
    exclude: [...configDefaults.exclude, 'test/faults/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most end-to-end files wait on child processes, PostgreSQL leases and timers, not the CPU:
    // two forks on a 2-core machine (vitest's default there is one) took the suite from 399 s to 258 s wall.
    maxWorkers: 2,
    // The slowest files start first, so both forks finish together (a fresh clone has no timings of its own).
    sequence: { sequencer: SlowestFirstSequencer },
    // One line when the browser tests will be skipped (no Chromium).
    globalSetup: ['test/helpers/browser-precondition.ts'],
    // The default report, then the ten slowest files (CI's log says where the suite's time goes).
    reporters: ['default', './test/helpers/slowest-files-reporter.ts'],
  },
});
