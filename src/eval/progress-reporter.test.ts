import { describe, expect, it } from 'vitest';
import { createProgressReporter, formatDuration } from './progress-reporter.js';

describe('createProgressReporter', () => {
  it('plain mode: first line, then at most one per interval, and the last', () => {
    let now = 0;
    const lines: string[] = [];
    const p = createProgressReporter({ stream: { write: (s: string) => lines.push(s) }, tty: false, intervalMs: 10_000, now: () => now });
    p.update({ done: 0, total: 4, skipped: 0 });
    now = 2_000;
    p.update({ done: 1, total: 4, skipped: 0 }); // within the interval: silent
    now = 12_000;
    p.update({ done: 2, total: 4, skipped: 1 });
    now = 13_000;
    p.update({ done: 4, total: 4, skipped: 1 });
    p.finish({ done: 4, total: 4, skipped: 1 }); // already printed
    expect(lines).toEqual([
      '[reponav] eval: 0/4 0% · elapsed 0s · ETA ?\n',
      '[reponav] eval: 2/4 (1 skipped) 50% · elapsed 12s · 6.0s/inst · ETA 12s\n',
      '[reponav] eval: 4/4 (1 skipped) 100% · elapsed 13s · 3.3s/inst · ETA 0s\n',
    ]);
  });

  it('tty mode: redraws one line in place and ends it on finish', () => {
    const chunks: string[] = [];
    const p = createProgressReporter({ stream: { write: (s: string) => chunks.push(s), isTTY: true, columns: 200 }, now: () => 0 });
    p.update({ done: 1, total: 2, skipped: 0, current: 'x-1' });
    p.finish({ done: 2, total: 2, skipped: 0 });
    // eslint-disable-next-line no-control-regex -- the terminal's erase-line escape is what is asserted
    expect(chunks[0]).toMatch(/^\r\[#{12}-{12}\] 1\/2 50%.*x-1\x1b\[K$/);
    expect(chunks.at(-1)).toBe('\n');
  });

  it('formats durations', () => {
    expect(formatDuration(42_000)).toBe('42s');
    expect(formatDuration(200_000)).toBe('3m20s');
    expect(formatDuration(3_720_000)).toBe('1h02m');
    expect(formatDuration(NaN)).toBe('?');
  });
});
