import { describe, expect, it } from 'vitest';
import { slowestFilesLines, SLOWEST_SHOWN, type TimedModule } from './slowest-files-reporter.js';

const module = (path: string, ms: number): TimedModule => ({
  moduleId: `/repo/${path}`,
  diagnostic: () => ({ prepareDuration: 1, setupDuration: 2, collectDuration: 3, duration: ms - 6 }),
});

describe('the slowest-files summary', () => {
  it('names the ten slowest files, slowest first, with set-up, import and test time', () => {
    const modules = Array.from({ length: 14 }, (_, i) => module(`test/f${i}.test.ts`, (i + 1) * 1000));
    const lines = slowestFilesLines(modules, '/repo');
    expect(lines[0]).toBe(`Slowest ${SLOWEST_SHOWN} of 14 test files:`);
    expect(lines).toHaveLength(SLOWEST_SHOWN + 1);
    expect(lines[1]).toBe('     14.0 s  test/f13.test.ts');
    expect(lines.at(-1)).toBe('      5.0 s  test/f4.test.ts');
  });

  it('says nothing for a run of one file', () => {
    expect(slowestFilesLines([module('test/a.test.ts', 10)], '/repo')).toEqual([]);
  });
});
