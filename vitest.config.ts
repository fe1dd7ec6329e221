import { configDefaults, defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './test/helpers/slowest-first-sequencer.js';
import { testFilesNeedingOwnModules } from './test/helpers/module-isolation.js';

const INCLUDE = ['src/**/*.test.ts', 'test/**/*.test.ts'];
// The slow fault cases run in `npm run stress` (vitest.faults.config.ts), not in `npm test`.
const EXCLUDE = [...configDefaults.exclude, 'test/faults/**'];
// Files that replace modules or assert a module's first use (test/helpers/module-isolation.ts).
const OWN_MODULES = testFilesNeedingOwnModules(import.meta.dirname, ['src', 'test']);

/** What both projects share (not the root's global setup, which runs once per run). */
const COMMON = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    // Most end-to-end files wait on child processes, PostgreSQL leases and timers, not the CPU:
    // two forks on a 2-core machine (vitest's default there is one) took the suite from 399 s to 258 s wall, and a
    // third, while those waits remain, 396 s to 372 s (one machine, one run each; the CPU summed rose 598 -> 636 s).
    maxWorkers: 3,
    // The slowest files start first, so the forks finish together (a fresh clone has no timings of its own).
    sequence: { sequencer: SlowestFirstSequencer },
    // One line when the browser tests will be skipped (no Chromium). Only here: a project
    // that extended it would run it again, and the line would be said once per project.
    globalSetup: ['test/helpers/browser-precondition.ts'],
    // The default report, then the ten slowest files (CI's log says where the suite's time goes).
    reporters: ['default', './test/helpers/slowest-files-reporter.ts'],
    projects: [
      {
        // Each fork imports the modules once and runs many files in them: the suite's import time fell from
        // 115 s to 15 s and its wall from 483 s to 343 s (one machine, one run each).
        test: { ...COMMON, name: 'shared-modules', include: INCLUDE, exclude: [...EXCLUDE, ...OWN_MODULES], isolate: false },
      },
      { test: { ...COMMON, name: 'own-modules', include: OWN_MODULES, exclude: EXCLUDE, isolate: true } },
    ],
  },
});
