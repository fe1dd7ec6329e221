import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test/helpers/mulberry32.js';
import { countOf } from './plural.js';

describe('countOf', () => {
  it('uses the singular for exactly one and the plural for every other count', () => {
    expect(countOf(1, 'file')).toBe('1 file');
    expect(countOf(0, 'file')).toBe('0 files');
    expect(countOf(1, 'reply', 'replies')).toBe('1 reply');
    expect(countOf(2, 'reply', 'replies')).toBe('2 replies');
    const seed = 43;
    const random = mulberry32(seed);
    for (let i = 0; i < 200; i++) {
      const n = Math.floor(random() * 5);
      expect(countOf(n, 'attempt'), `seed ${seed}, n ${n}`).toBe(n === 1 ? '1 attempt' : `${n} attempts`);
    }
  });
});
