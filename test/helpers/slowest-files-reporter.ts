/**
 * vitest reporter: at the end of a run of several files, the ten slowest test
 * files with their time (set-up, import and tests), one line each, so CI's log
 * says where the suite's time goes. Runs beside the default reporter.
 */
import { relative } from 'node:path';

/** What the reporter reads of a test module (vitest's TestModule). */
export interface TimedModule {
  readonly moduleId: string;
  diagnostic(): { prepareDuration: number; setupDuration: number; collectDuration: number; duration: number };
}

/** How many files the summary names. */
export const SLOWEST_SHOWN = 10;

/** The summary's lines for `modules` (relative to `root`), slowest first; none for a run of one file. */
export function slowestFilesLines(modules: readonly TimedModule[], root: string): string[] {
  if (modules.length < 2) return [];
  const timed = modules.map((module) => {
    const d = module.diagnostic();
    return { path: relative(root, module.moduleId), ms: d.prepareDuration + d.setupDuration + d.collectDuration + d.duration };
  });
  timed.sort((a, b) => b.ms - a.ms || (a.path < b.path ? -1 : 1));
  const shown = timed.slice(0, SLOWEST_SHOWN);
  return [`Slowest ${shown.length} of ${modules.length} test files:`, ...shown.map((t) => `  ${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.path}`)];
}

/** The reporter (vitest.config.ts's `reporters`). */
export default class SlowestFilesReporter {
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: readonly TimedModule[]): void {
    const lines = slowestFilesLines(modules, this.root);
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
