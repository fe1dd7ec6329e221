import { describe, expect, it } from 'vitest';
import { displayPath } from './text-format.js';

describe('displayPath', () => {
  it('leaves ordinary paths alone and quotes paths with control characters', () => {
    expect(displayPath('src/a b "c".py')).toBe('src/a b "c".py');
    expect(displayPath('a\nb.py')).toBe('"a\\nb.py"');
    expect(displayPath('t\tab\\"q\u0001.py')).toBe('"t\\tab\\\\\\"q\\x01.py"');
  });
});
