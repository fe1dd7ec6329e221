import { describe, expect, it } from 'vitest';
import { indexedText, writerText } from './status-command.js';

describe('status: the Indexed line', () => {
  const writer = { pid: 42, startedAt: 0, done: 64, total: 623 };
  const at = Date.UTC(2026, 11, 1, 5, 53, 30);

  it('says a first index is being built while another process writes it, and never when none runs', () => {
    expect(indexedText({ indexedAt: null, complete: false, writer, files: 64 })).toBe('not yet: the first index is being built now (see Writer)');
    expect(indexedText({ indexedAt: null, complete: false, writer: null, files: 0 })).toBe('never (run `reponav index`)');
  });

  it('says a first index that was interrupted holds part of the tree, not that it never ran', () => {
    // Seen on a 2,087-file tree after `reponav index` was killed: "never (run `reponav index`)" beside "Contents: 832 files".
    expect(indexedText({ indexedAt: null, complete: false, writer: null, files: 832 })).toBe(
      'not yet: the first index was interrupted after 832 files; run `reponav index` to finish',
    );
  });

  it('tells an update in progress from an interrupted run', () => {
    expect(indexedText({ indexedAt: at, complete: true, writer: null, files: 9 })).toBe('2026-12-01T05:53:30.000Z');
    expect(indexedText({ indexedAt: at, complete: false, writer, files: 9 })).toBe('2026-12-01T05:53:30.000Z, being updated now (see Writer)');
    expect(indexedText({ indexedAt: at, complete: false, writer: null, files: 9 })).toContain('INCOMPLETE: the last run was interrupted');
  });
});

describe('status: the Writer line', () => {
  it("says the writer's counts are of this run's new or changed files, not of the index's contents", () => {
    // A run resumed after 832 files were indexed: Contents reads 960 files while the writer has done 128 of the other 1242.
    const text = writerText({ pid: 42, startedAt: 0, done: 128, total: 1242 });
    expect(text).toBe('process 42 is indexing now: 128 of the 1242 new or changed files done (Contents also counts the files kept from before)');
  });

  it('says the writer is still listing files before it has counted any, instead of 0/0', () => {
    expect(writerText({ pid: 42, startedAt: 0, done: 0, total: 0 })).toBe('process 42 is indexing now: listing the files to find what needs indexing');
  });
});
