import { defineConfig } from 'vitest/config';

/** Runs bench/rerank-cost.ts (a measurement script, not a test; see its header). */
export default defineConfig({
  test: { include: ['bench/rerank-cost.ts'], testTimeout: 7_200_000, pool: 'forks' },
});
