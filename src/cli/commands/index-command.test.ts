import { describe, expect, it } from 'vitest';
import type { IndexReport } from '../../index/index.js';
import { summarizeReport } from './index-command.js';

const report = (listed: number, partial: number): IndexReport => ({
  mode: 'worktree',
  root: '/repo',
  commit: null,
  listed,
  unchanged: 0,
  parsed: listed,
  reused: 0,
  deleted: 0,
  partial,
  failed: 0,
  failures: [],
  skipped: {},
  skippedExamples: {},
  durationMs: 1000,
});

describe('summarizeReport', () => {
  it('writes one file and one partial parse in the singular', () => {
    const line = summarizeReport(report(1, 1), '/cache/index.db');
    expect(line).toMatch(/^Indexed 1 file of /);
    expect(line).toContain('; 1 partial parse, 0 failed.');
    expect(summarizeReport(report(2, 0), '/cache/index.db')).toMatch(/^Indexed 2 files of .*; 0 partial parses, 0 failed\./);
  });
});
