import { describe, expect, it } from 'vitest';
import { extractMessagePhrases } from './message-phrases.js';

describe('extractMessagePhrases', () => {
  it('takes the message after ERROR markers, without [context] id: prefixes', () => {
    const text = 'Title\n[debug] stuff\nERROR: [bilibili] 12345: Unable to extract play info; please report this issue\n';
    expect(extractMessagePhrases(text)).toEqual(['Unable to extract play info; please report this issue']);
  });
  it('takes exception messages and quoted strings', () => {
    const text = 'ValueError: Order of columns does not match\nthe title says "No video formats found!" again';
    expect(extractMessagePhrases(text)).toEqual(['Order of columns does not match', 'No video formats found!']);
  });
  it('ignores short fragments and plain prose', () => {
    expect(extractMessagePhrases('it fails "x" sometimes\nno markers here')).toEqual([]);
  });
});
