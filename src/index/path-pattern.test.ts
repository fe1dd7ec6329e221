import { describe, expect, it } from 'vitest';
import { compilePathPattern } from './path-pattern.js';

describe('compilePathPattern', () => {
  it('matches basenames anywhere when there is no slash', () => {
    const match = compilePathPattern('*.py');
    expect(match('a/b/c.py')).toBe(true);
    expect(match('a/b/c.pyc')).toBe(false);
  });
  it('supports ** across folders and folder prefixes', () => {
    expect(compilePathPattern('src/**/*.ts')('src/a/b/x.ts')).toBe(true);
    expect(compilePathPattern('src/**/*.ts')('lib/x.ts')).toBe(false);
    expect(compilePathPattern('tests/')('tests/unit/a.py')).toBe(true);
  });
  it('treats regex characters literally and refuses very long patterns', () => {
    expect(compilePathPattern('a+(b).py')('a+(b).py')).toBe(true);
    expect(compilePathPattern('a+(b).py')('aa(b).py')).toBe(false);
    expect(() => compilePathPattern('*'.repeat(300))).toThrow(/limit is 256/);
  });
  it('runs in linear time on a pathological pattern', () => {
    const match = compilePathPattern('*a*a*a*a*a*a*a*a*a*a*a*a*b');
    const started = Date.now();
    expect(match('a'.repeat(5000))).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
