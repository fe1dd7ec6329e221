import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { availablePrograms, checkProgram, READ_ONLY_PROGRAMS, type PolicyContext } from './program-policy.js';
import { expandGlob } from './glob-expansion.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'reponav-policy-')));
mkdirSync(join(root, 'src', 'pkg'), { recursive: true });
for (const file of ['src/a.py', 'src/b.py', 'src/pkg/c.py', 'src/.hidden.py', 'README.md']) writeFileSync(join(root, file), 'x\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ctx: PolicyContext = { root, symlinkFree: true, installed: new Set(READ_ONLY_PROGRAMS), sedSandbox: true };
const check = (...argv: string[]) => checkProgram(argv, ctx);

describe('checkProgram', () => {
  it('allows read-only programs and reports the files they read', () => {
    expect(check('cat', 'src/a.py', 'src/b.py')).toEqual({ ok: true, checked: { program: 'cat', args: ['src/a.py', 'src/b.py'], inspected: ['src/a.py', 'src/b.py'] } });
    expect(check('sed', '-n', '1,5p', 'src/a.py')).toEqual({ ok: true, checked: { program: 'sed', args: ['--sandbox', '-n', '1,5p', 'src/a.py'], inspected: ['src/a.py'] } });
    expect(check('head', '-n', '20', 'README.md')).toMatchObject({ ok: true, checked: { inspected: ['README.md'] } });
    expect(check('grep', '-rn', '/api/v1', 'src')).toMatchObject({ ok: true, checked: { inspected: [] } }); // the pattern is not a path
    expect(check('grep', '-e', '/etc', 'src')).toMatchObject({ ok: true });
    expect(check('cut', '-d', '/', '-f', '1')).toMatchObject({ ok: true }); // a delimiter value is not a path
    expect(check('find', 'src', '-name', '*.py', '-path', '/x/*')).toMatchObject({ ok: true });
    expect(check('sort', '-t', '/', '-k', '2')).toMatchObject({ ok: true });
  });

  it('refuses writes, commands and escapes', () => {
    expect(check('sed', '1,5p', 'src/a.py')).toMatchObject({ ok: false, reason: expect.stringMatching(/only allowed with -n/) });
    expect(check('sed', '-n', '-e', '1p', '-e', 'w x', 'src/a.py')).toMatchObject({ ok: false, reason: expect.stringMatching(/writes a file/) });
    expect(check('sed', '-n', '-f', 'script.sed')).toMatchObject({ ok: false });
    expect(check('find', '.', '-execdir', 'rm', '{}', ';')).toMatchObject({ ok: false, reason: expect.stringMatching(/runs commands/) });
    expect(check('find', '.', '-fprintf', 'x', '%p')).toMatchObject({ ok: false });
    expect(check('rg', '--pre', 'sh', 'x')).toMatchObject({ ok: false, reason: expect.stringMatching(/runs a program/) });
    expect(check('sort', '--compress-program=gzip', 'README.md')).toMatchObject({ ok: false });
    expect(check('tree', '-o', 'out.txt')).toMatchObject({ ok: false });
    expect(check('uniq', 'README.md', 'out')).toMatchObject({ ok: false, reason: expect.stringMatching(/writes the second/) });
    expect(check('tail', '-F', 'README.md')).toMatchObject({ ok: false });
    expect(check('cat', '/etc/passwd')).toMatchObject({ ok: false, reason: expect.stringMatching(/outside the repository/) });
    expect(check('cat', `${root}/README.md`)).toMatchObject({ ok: true }); // absolute but inside
    expect(check('grep', 'x', '../..')).toMatchObject({ ok: false });
    expect(check('wc', '--files0-from=/etc/hosts')).toMatchObject({ ok: false });
    expect(check('ls', '--', '/')).toMatchObject({ ok: false });
    expect(check('python3', 'x.py')).toMatchObject({ ok: false, reason: expect.stringMatching(/not an allowed program/) });
    expect(check('./cat', 'x')).toMatchObject({ ok: false, reason: expect.stringMatching(/by name/) });
  });

  it('offers optional programs only when installed', () => {
    expect(availablePrograms(new Set(['cat', 'grep', 'rg']))).toEqual(['cat', 'grep', 'rg']);
    expect(checkProgram(['rg', 'x'], { ...ctx, installed: new Set(['cat']) })).toMatchObject({ ok: false });
  });
});

describe('expandGlob', () => {
  it('expands per segment like bash, hiding dotfiles and keeping no-match words', () => {
    expect(expandGlob('src/*.py', root, root)).toEqual(['src/a.py', 'src/b.py']);
    expect(expandGlob('src/*/*.py', root, root)).toEqual(['src/pkg/c.py']);
    expect(expandGlob('src/[ab].py', root, root)).toEqual(['src/a.py', 'src/b.py']);
    expect(expandGlob('src/[!a].py', root, root)).toEqual(['src/b.py']);
    expect(expandGlob('src/.*.py', root, root)).toEqual(['src/.hidden.py']);
    expect(expandGlob('src/?.py', root, root)).toEqual(['src/a.py', 'src/b.py']);
    expect(expandGlob('*.rs', root, root)).toBeNull();
    expect(expandGlob('src/\\*.py', root, root)).toBeNull();
  });
  it('never lists folders outside the view', () => {
    expect(expandGlob('/etc/*', root, root)).toBeNull();
    expect(expandGlob('../*', root, root)).toBeNull();
  });
});
