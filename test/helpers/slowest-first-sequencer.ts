/**
 * vitest sequencer: the slowest test files start first, so the two forks
 * finish together instead of one fork starting a 30 s file while the other
 * sits idle at the end. A file's expected time is its duration in this
 * checkout's last run (vitest's results cache) or, on a fresh clone where no
 * cache exists, its time in `EXPECTED_SECONDS` (CI's slowest-files lines);
 * files with neither run after them, larger files first (vitest's own rule).
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds of the slowest files in a CI run (the `Slowest 10 of N test files`
 * lines `test/helpers/slowest-files-reporter.ts` prints). Only the order
 * matters; update it from CI's log when the slowest files change.
 */
export const EXPECTED_SECONDS: Readonly<Record<string, number>> = {
  'test/reply-styles/reply-style-suite.test.ts': 43.0,
  'test/package/pack-install.test.ts': 32.2,
  'test/reply-styles/reply-generator.test.ts': 26.7,
  'test/team/team-faults.test.ts': 26.6,
  'test/team/team-poll-lease.test.ts': 19.3,
  'test/team/team-visibility.test.ts': 17.9,
  'test/agents-localize/agent-process-exit.test.ts': 16.9,
  'test/cli/index-safety.test.ts': 10.7,
  'test/team/team-freshness.test.ts': 9.9,
  'test/team/team-claims.test.ts': 9.6,
};

/** One file to order: its path relative to the root, its last duration in ms (if cached) and its size in bytes (if known). */
export interface FileToOrder {
  readonly path: string;
  readonly cachedMs: number | undefined;
  readonly size: number | undefined;
}

/**
 * `files` in the order they should start: known durations (cached, else
 * `expected`) longest first, then files with no known duration, larger
 * first; ties by path so the order is the same on every machine.
 */
export function slowestFirst<T extends FileToOrder>(files: readonly T[], expected: Readonly<Record<string, number>> = EXPECTED_SECONDS): T[] {
  const known = (f: FileToOrder): number | undefined => f.cachedMs ?? (expected[f.path] === undefined ? undefined : expected[f.path]! * 1000);
  return [...files].sort((a, b) => {
    const [ka, kb] = [known(a), known(b)];
    if (ka !== undefined || kb !== undefined) {
      if (ka === undefined) return 1;
      if (kb === undefined) return -1;
      if (ka !== kb) return kb - ka;
    } else if ((a.size ?? 0) !== (b.size ?? 0)) return (b.size ?? 0) - (a.size ?? 0);
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
}

/** The sequencer (vitest.config.ts's `sequence.sequencer`); sharding stays vitest's. */
export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const files = specs.map((spec) => {
      const key = `${spec.project.name}:${relative(root, spec.moduleId)}`;
      return {
        spec,
        path: relative(root, spec.moduleId).split('\\').join('/'),
        cachedMs: this.ctx.cache.getFileTestResults(key)?.duration,
        size: this.ctx.cache.getFileStats(key)?.size,
      };
    });
    return slowestFirst(files).map((f) => f.spec);
  }
}
