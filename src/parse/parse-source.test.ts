import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSource } from './parse-source.js';
import type { CodeSymbol } from './symbol-model.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const byName = (symbols: CodeSymbol[], qualifiedName: string) => {
  const found = symbols.find((s) => s.qualifiedName === qualifiedName);
  if (!found) throw new Error(`no symbol ${qualifiedName} in ${symbols.map((s) => s.qualifiedName).join(', ')}`);
  return found;
};

const PYTHON = `import os
from .util import helper, other as o

# Cache of parsed things.
# Second line is ignored.
@register("x")
@functools.lru_cache(maxsize=None)
class Outer(Base, mixins.Loggable):
    """Outer docstring.

    More text.
    """

    class Inner:
        def method(self, a, b=1) -> int:
            '''Inner method doc.'''
            return helper(a).strip() + self.other(b)

    def run(self):
        def nested(x):
            return deep(x)
        nested(1)
        os.path.join("a", "b")
        return nested(2)


async def top(  a,
        b):  # trailing comment
    return Outer().run()
`;

describe('parseSource: Python', async () => {
  const parsed = await parseSource('pkg/mod.py', utf8(PYTHON));
  const { symbols } = parsed;

  it('reports file facts', () => {
    expect(parsed.language).toBe('python');
    expect(parsed.status).toBe('ok');
    expect(parsed.errorCount).toBe(0);
    expect(parsed.decodedWithReplacement).toBe(false);
    expect(parsed.lineCount).toBe(29);
    expect(parsed.contentHash).toBe(createHash('sha1').update(PYTHON).digest('hex'));
    expect(parsed.imports).toEqual([
      { source: 'os', names: [], line: 1 },
      { source: '.util', names: ['helper', 'other'], line: 2 },
    ]);
  });

  it('names nested types, methods and inner functions', () => {
    expect(symbols.map((s) => [s.kind, s.qualifiedName, s.parent])).toEqual([
      ['class', 'Outer', null],
      ['class', 'Outer.Inner', 'Outer'],
      ['method', 'Outer.Inner.method', 'Outer.Inner'],
      ['method', 'Outer.run', 'Outer'],
      ['function', 'Outer.run.nested', 'Outer.run'],
      ['function', 'top', null],
    ]);
  });

  it('includes decorators in the span but not in the signature', () => {
    const outer = byName(symbols, 'Outer');
    expect([outer.startLine, outer.endLine]).toEqual([6, 24]);
    expect(outer.signature).toBe('class Outer(Base, mixins.Loggable):');
    expect(outer.bases).toEqual(['Base', 'mixins.Loggable']);
  });

  it('prefers the docstring, else the comment block above', () => {
    expect(byName(symbols, 'Outer').doc).toBe('Outer docstring.');
    expect(byName(symbols, 'Outer.Inner.method').doc).toBe('Inner method doc.');
    expect(byName(symbols, 'Outer.run').doc).toBeNull();
  });

  it('takes the comment block directly above when there is no docstring', async () => {
    const file = await parseSource('a.py', utf8('x = 1  # not a doc\n# Adds.\n#\n# More.\ndef add(a, b):\n    return a + b\n\n# Detached.\n\ndef sub(a, b):\n    return a - b\n'));
    expect(byName(file.symbols, 'add').doc).toBe('Adds.');
    expect(byName(file.symbols, 'sub').doc).toBeNull();
  });

  it('collapses multi-line signatures and drops comments in them', () => {
    expect(byName(symbols, 'top').signature).toBe('async def top( a, b):');
    expect(byName(symbols, 'Outer.Inner.method').signature).toBe('def method(self, a, b=1) -> int:');
  });

  it('records callees in order, deduped, excluding nested definitions', () => {
    expect(byName(symbols, 'Outer.Inner.method').callees).toEqual(['helper', 'strip', 'other']);
    expect(byName(symbols, 'Outer.run').callees).toEqual(['nested', 'join']);
    expect(byName(symbols, 'Outer.run.nested').callees).toEqual(['deep']);
    expect(byName(symbols, 'top').callees).toEqual(['Outer', 'run']);
    // Decorator calls belong to the enclosing scope (here: the module, so nobody).
    expect(byName(symbols, 'Outer').callees).toEqual([]);
  });

  it('sorts by start line, then by end line descending', () => {
    const keys = symbols.map((s) => [s.startLine, -s.endLine]);
    const sorted = [...keys].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    expect(keys).toEqual(sorted);
  });
});

describe('parseSource: status and decoding', () => {
  it('recovers symbols around a syntax error and reports partial', async () => {
    const source = 'def before():\n    return 1\n\ndef broken(x):\n    y = x +\n    return y\n\nclass After:\n    def m(self):\n        return before()\n';
    const parsed = await parseSource('broken.py', utf8(source));
    expect(parsed.status).toBe('partial');
    expect(parsed.errorCount).toBeGreaterThan(0);
    expect(parsed.symbols.map((s) => s.qualifiedName)).toEqual(['before', 'broken', 'After', 'After.m']);
    expect(byName(parsed.symbols, 'After.m').callees).toEqual(['before']);
  });

  it('flags invalid UTF-8 and parses it decoded as Latin-1 (Windows-1252), with no replacement characters', async () => {
    const bytes = new Uint8Array([...utf8('# caf'), 0xe9, ...utf8('\ndef f():\n    return 1\n')]);
    const parsed = await parseSource('latin1.py', bytes);
    expect(parsed.decodedWithReplacement).toBe(true);
    expect(parsed.status).toBe('ok');
    expect(byName(parsed.symbols, 'f').doc).toBe('café');
    expect(parsed.contentHash).toBe(createHash('sha1').update(bytes).digest('hex'));
  });

  it('keeps spans right after non-ASCII text', async () => {
    const parsed = await parseSource('u.py', utf8('s = "日本語 😀"\n\n# ünïcode doc\ndef f(a="😀"):\n    return g(a)\n'));
    const f = byName(parsed.symbols, 'f');
    expect([f.startLine, f.endLine, f.signature, f.doc, f.callees]).toEqual([4, 5, 'def f(a="😀"):', 'ünïcode doc', ['g']]);
  });

  it('returns unsupported with hash and line count for unknown extensions', async () => {
    const bytes = utf8('# Title\n\ntext\n');
    const parsed = await parseSource('docs/README.md', bytes);
    expect(parsed).toEqual({
      path: 'docs/README.md',
      language: 'unknown',
      contentHash: createHash('sha1').update(bytes).digest('hex'),
      status: 'unsupported',
      errorCount: 0,
      decodedWithReplacement: false,
      lineCount: 3,
      imports: [],
      symbols: [],
    });
  });

  it('handles empty files and a missing final newline', async () => {
    expect((await parseSource('e.py', new Uint8Array())).lineCount).toBe(0);
    expect((await parseSource('e.py', utf8('x = 1'))).lineCount).toBe(1);
    expect((await parseSource('e.py', utf8('x = 1\n\n'))).lineCount).toBe(2);
  });

  it('parses many files concurrently with one shared parser per language', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => parseSource(`f${i}.py`, utf8(`def f${i}():\n    return g${i}()\n`))),
    );
    results.forEach((parsed, i) => expect(parsed.symbols.map((s) => [s.name, s.callees])).toEqual([[`f${i}`, [`g${i}`]]]));
  });
});

describe('parseSource: attaching members to their type', () => {
  it('attaches Go methods to the receiver type', async () => {
    const parsed = await parseSource('s.go', utf8('package s\n\ntype S struct{}\n\nfunc (s *S) Run() { helper() }\n\nfunc (Pair[K, V]) Get() {}\n'));
    expect(parsed.symbols.map((s) => [s.kind, s.qualifiedName, s.parent])).toEqual([
      ['struct', 'S', null],
      ['method', 'S.Run', 'S'],
      ['method', 'Pair.Get', 'Pair'],
    ]);
  });

  it('attaches Rust impl functions and trait impls to the type', async () => {
    const parsed = await parseSource('l.rs', utf8('struct P;\ntrait T { fn t(&self); }\nimpl P { fn new() -> Self { P } }\nimpl T for P { fn t(&self) {} }\n'));
    expect(byName(parsed.symbols, 'P.new').kind).toBe('method');
    expect(byName(parsed.symbols, 'P.t').parent).toBe('P');
    expect(byName(parsed.symbols, 'P').bases).toEqual(['T']);
  });

  it('attaches C++ out-of-line definitions and drops the duplicate declaration', async () => {
    const parsed = await parseSource('a.cpp', utf8('class A {\n  void f();\n  struct B { void g(); };\n};\nvoid A::f() { g(); }\nvoid ns::A::B::g() {}\n'));
    expect(parsed.symbols.map((s) => [s.kind, s.qualifiedName, s.startLine])).toEqual([
      ['class', 'A', 1],
      ['struct', 'A.B', 3],
      ['method', 'A.f', 5],
      ['method', 'A.B.g', 6],
    ]);
  });

  it('reports new Foo() as a call to Foo', async () => {
    const parsed = await parseSource('a.ts', utf8('function make() { return new Foo(a.b.c(x), bar()); }\n'));
    expect(byName(parsed.symbols, 'make').callees).toEqual(['Foo', 'c', 'bar']);
  });
});
