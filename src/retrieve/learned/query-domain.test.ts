import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { inQueryDomain, textInQueryDomain } from './query-domain.js';
import { countWords, parseQuery } from '../query-parser.js';

const WORDS = ['load_config', 'fails', 'pkg/loader.py', '`x`', 'KeyError:', '—', 'ünïcode', '42', 'a.b.c()'];
const SPACES = [' ', '  ', '\t', '\n', '\r\n', '\n\n', ' \t '];

describe('the query domain', () => {
  it('counts words as runs of non-space, and applies the word limit and the trace rule exactly (seeded generated texts)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = mulberry32(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
      const n = Math.floor(random() * 12);
      const text = (random() < 0.5 ? pick(SPACES) : '') + Array.from({ length: n }, () => pick(WORDS)).join(pick(SPACES)) + (random() < 0.5 ? pick(SPACES) : '');
      expect(countWords(text), `seed ${seed}: ${JSON.stringify(text)}`).toBe(n);
      const maxWords = 1 + Math.floor(random() * 12);
      const frames = Math.floor(random() * 3);
      const traces = random() < 0.5;
      // The parse carries the same count: the search reads the parse, not the text.
      expect(parseQuery(text).words, `seed ${seed}: ${JSON.stringify(text)}`).toBe(n);
      const query = { words: parseQuery(text).words, frames: Array.from({ length: frames }, () => ({ file: 'x.py', functionName: null, line: 1 })) };
      expect(inQueryDomain(query, { maxWords, traces }), `seed ${seed}`).toBe(n <= maxWords && (traces || frames === 0));
    }
  });

  it('classes a text by the search parser\'s stack frames: a Python traceback is traced, prose is not', () => {
    const domain = { maxWords: 150, traces: false };
    expect(textInQueryDomain('load_config fails on an empty settings file', domain)).toBe(true);
    const traced = 'It fails\nTraceback (most recent call last):\n  File "/x/pkg/loader.py", line 15, in load_config\nKeyError: x';
    expect(textInQueryDomain(traced, domain)).toBe(false);
    expect(textInQueryDomain(traced, { ...domain, traces: true })).toBe(true);
    expect(textInQueryDomain(Array.from({ length: 151 }, () => 'word').join(' '), domain)).toBe(false);
    expect(textInQueryDomain(Array.from({ length: 150 }, () => 'word').join(' '), domain)).toBe(true);
  });
});
