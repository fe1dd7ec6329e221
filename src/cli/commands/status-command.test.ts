import { describe, expect, it } from 'vitest';
import { indexedText } from './status-command.js';

describe('status: the Indexed line', () => {
  const writer = { pid: 42, startedAt: 0, done: 64, total: 623 };
  const at = Date.UTC(2026, 11, 1, 5, 53, 30);

  it('says a first index is being built while another process writes it, and never when none runs', () => {
    expect(indexedText({ indexedAt: null, complete: false, writer })).toBe('not yet: the first index is being built now (see Writer)');
    expect(indexedText({ indexedAt: null, complete: false, writer: null })).toBe('never (run `reponav index`)');
  });

  it('tells an update in progress from an interrupted run', () => {
    expect(indexedText({ indexedAt: at, complete: true, writer: null })).toBe('2026-12-01T05:53:30.000Z');
    expect(indexedText({ indexedAt: at, complete: false, writer })).toBe('2026-12-01T05:53:30.000Z, being updated now (see Writer)');
    expect(indexedText({ indexedAt: at, complete: false, writer: null })).toContain('INCOMPLETE: the last run was interrupted');
  });
});
