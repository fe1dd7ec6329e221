import { describe, expect, it } from 'vitest';
import { isReponavError } from '../../errors.js';
import { compilePathPattern, MAX_STARS_PER_SEGMENT } from './path-pattern.js';

const PATHS = [
  'src/flask/app.py',
  'src/flask/typing.pyi',
  'src/flask/json/provider.py',
  'src/flaskext/x.py',
  'tests/test_app.py',
  'tests/unit/a.py',
  'docs/conf.py',
  'build.rs',
  'a.c',
  'c.go',
  '.github/workflows/ci.yml',
  'web/basket.ts',
  'web/api-client.ts',
];

/** The paths of PATHS the pattern selects. */
function select(pattern: string): string[] {
  const match = compilePathPattern(pattern);
  return PATHS.filter((path) => match(path));
}

describe('compilePathPattern', () => {
  it('matches names at any depth when the pattern has no slash', () => {
    expect(select('*.py')).toEqual(['src/flask/app.py', 'src/flask/json/provider.py', 'src/flaskext/x.py', 'tests/test_app.py', 'tests/unit/a.py', 'docs/conf.py']);
    expect(select('*.yml')).toEqual(['.github/workflows/ci.yml']);
  });

  it('expands braces and character classes (the standard dialect)', () => {
    expect(select('*.{py,pyi}')).toContain('src/flask/typing.pyi');
    expect(select('*.{py,pyi}')).toHaveLength(7);
    expect(select('[a-c]*.py')).toEqual(['src/flask/app.py', 'tests/unit/a.py', 'docs/conf.py']);
    expect(select('[^a-c]*.go')).toEqual([]);
    expect(select('src/flask/*.py?')).toEqual(['src/flask/typing.pyi']);
  });

  it('treats a folder with or without a trailing slash as everything under it', () => {
    const flask = ['src/flask/app.py', 'src/flask/typing.pyi', 'src/flask/json/provider.py'];
    expect(select('src/flask')).toEqual(flask);
    expect(select('src/flask/')).toEqual(flask);
    expect(select('./src/flask')).toEqual(flask);
    expect(select('tests')).toEqual(['tests/test_app.py', 'tests/unit/a.py']);
    expect(select('json')).toEqual(['src/flask/json/provider.py']);
  });

  it('lets ** cross folders, and a pattern with a slash start at any folder', () => {
    expect(select('src/**/*.py')).toEqual(['src/flask/app.py', 'src/flask/json/provider.py', 'src/flaskext/x.py']);
    expect(select('flask/app.py')).toEqual(['src/flask/app.py']);
    expect(select('**/json/*.py')).toEqual(['src/flask/json/provider.py']);
    expect(select('src/*/app.py')).toEqual(['src/flask/app.py']);
    expect(select('lib/**/*.py')).toEqual([]);
    expect(select('/flask/app.py')).toEqual([]);
    expect(select('/src/flask/app.py')).toEqual(['src/flask/app.py']);
    expect(select('{src,docs}/*.py')).toEqual(['docs/conf.py']);
    expect(select('src/{flask,flaskext}/*.py')).toEqual(['src/flask/app.py', 'src/flaskext/x.py']);
  });

  it('matches everything for an empty pattern and treats extglob and negation characters literally', () => {
    expect(select('  ')).toEqual(PATHS);
    expect(compilePathPattern('a+(b).py')('a+(b).py')).toBe(true);
    expect(compilePathPattern('a+(b).py')('aa(b).py')).toBe(false);
    expect(compilePathPattern('!*.py')('x.py')).toBe(false);
  });

  it('refuses very long patterns and segments with too many stars, as BAD_INPUT', () => {
    const tooLong = (() => {
      try {
        compilePathPattern('a'.repeat(300));
      } catch (error) {
        return error;
      }
    })();
    expect(isReponavError(tooLong, 'BAD_INPUT')).toBe(true);
    expect((tooLong as Error).message).toMatch(/limit is 256/);
    expect(() => compilePathPattern('*a*a*a*a*b')).toThrow(new RegExp(`limit is ${MAX_STARS_PER_SEGMENT} per segment`));
    expect(() => compilePathPattern('{src,lib/x}/*.py')).toThrow(/'\/' inside braces/);
    // Stars spread over segments, and runs of ** folded into one, are fine.
    expect(compilePathPattern('**/*a*/*b*/**/*.py')('xa/yb/z/w.py')).toBe(true);
    expect(compilePathPattern('**/'.repeat(80) + 'x')('a/b/x')).toBe(true);
    expect(compilePathPattern('src/**/**/**/*.py')('src/a/b.py')).toBe(true);
  });

  it('answers worst-case allowed patterns on long adversarial paths', () => {
    const match = compilePathPattern('*a*a*b');
    expect(match('a'.repeat(255))).toBe(false);
    expect(match('a'.repeat(254) + 'b')).toBe(true);
    expect(compilePathPattern('**/a*a*a*/**/b')('aaa/'.repeat(50) + 'c')).toBe(false);
    expect(compilePathPattern('a*/**/a*a*a*/**')('aaa/'.repeat(50) + 'c')).toBe(true);
  });
});
