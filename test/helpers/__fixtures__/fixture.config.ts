import { defineConfig } from 'vitest/config';

/** The configuration child-processes.test.ts runs its fixture with (not part of `npm test`). */
export default defineConfig({
  test: { include: ['test/helpers/__fixtures__/*.fixture.ts'], pool: 'forks', reporters: ['dot'] },
});
