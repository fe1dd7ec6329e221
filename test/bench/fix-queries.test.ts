/**
 * bench/fix-queries.mjs: which text of a fix commit becomes the query, and
 * that every query says how it was formed.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error a bench script (plain JavaScript, no declarations)
import { cleanMessage, formQuery, issueRefs } from '../../bench/fix-queries.mjs';

describe('formQuery', () => {
  it('takes a pull-request merge body as the query and refuses a branch merge', () => {
    const merged = formQuery('Merge pull request #812 from dev/fix-cookies\n\nFix cookie jar dropping expired sessions\n', true);
    expect(merged).toEqual({ query: 'Fix cookie jar dropping expired sessions', source: 'merge-pull-request', refs: [812] });
    expect(formQuery("Merge branch 'stable'", true)).toBeNull();
  });

  it('puts an issue title the body quotes first, then the rest of the message', () => {
    const formed = formQuery('Handle empty basket\n\nFixes #42: Total crashes on an empty basket\n\nThe sum had no start value.');
    expect(formed.source).toBe('issue-title');
    expect(formed.refs).toEqual([42]);
    expect(formed.query).toBe('Total crashes on an empty basket\n\nHandle empty basket\n\nThe sum had no start value.');
  });

  it('ignores a closing line without a title of three words', () => {
    const formed = formQuery('Fix total on empty basket\n\nFixes #42: crash');
    expect(formed.source).toBe('commit-message');
    expect(formed.query).toBe('Fix total on empty basket\n\nFixes #42: crash');
  });

  it('names a squash merge subject a pull-request title and drops its number', () => {
    expect(formQuery('Fix total on empty basket (#77)\n\nSigned-off-by: A <a@example.com>')).toEqual({
      query: 'Fix total on empty basket',
      source: 'pull-request-title',
      refs: [77],
    });
  });

  it('keeps only description lines in a cleaned message and lists every reference once', () => {
    expect(cleanMessage('Fix it\n\nCloses #3\nhttps://github.com/o/n/pull/4\n(cherry picked from commit abcdef0)')).toBe('Fix it');
    expect(issueRefs('Fix #3 and #4, see o/n#3')).toEqual([3, 4]);
  });
});
