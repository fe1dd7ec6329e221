import { describe, expect, it } from 'vitest';
import { resolveImport } from './resolve-imports.js';
import { LANGUAGE_IDS } from './languages.js';
import type { ImportRecord } from './symbol-model.js';

const imp = (source: string, names: string[] = []): ImportRecord => ({ source, names, line: 1 });
const files = (...paths: string[]) => new Set(paths);

describe('resolveImport: Python', () => {
  const repo = files(
    'pkg/__init__.py',
    'pkg/a.py',
    'pkg/sub/__init__.py',
    'pkg/sub/b.py',
    'src/lib2/c.py',
    'lib/lib3/__init__.pyi',
    'top.py',
  );
  it('resolves absolute modules to files or packages, also under src/ and lib/', () => {
    expect(resolveImport('x.py', 'python', imp('pkg.a'), repo)).toEqual(['pkg/a.py']);
    expect(resolveImport('x.py', 'python', imp('pkg.sub'), repo)).toEqual(['pkg/sub/__init__.py']);
    expect(resolveImport('x.py', 'python', imp('lib2.c'), repo)).toEqual(['src/lib2/c.py']);
    expect(resolveImport('x.py', 'python', imp('lib3'), repo)).toEqual(['lib/lib3/__init__.pyi']);
    expect(resolveImport('x.py', 'python', imp('os.path'), repo)).toEqual([]);
  });
  it('treats `from pkg import name` as a submodule when one exists', () => {
    expect(resolveImport('x.py', 'python', imp('pkg', ['a']), repo)).toEqual(['pkg/a.py']);
    expect(resolveImport('x.py', 'python', imp('pkg', ['a', 'CONST']), repo)).toEqual(['pkg/__init__.py', 'pkg/a.py']);
    expect(resolveImport('x.py', 'python', imp('pkg.sub', ['*']), repo)).toEqual(['pkg/sub/__init__.py']);
  });
  it('resolves relative imports from the importing file’s package', () => {
    expect(resolveImport('pkg/sub/b.py', 'python', imp('.', ['b']), repo)).toEqual(['pkg/sub/b.py']);
    expect(resolveImport('pkg/sub/b.py', 'python', imp('..a'), repo)).toEqual(['pkg/a.py']);
    expect(resolveImport('pkg/sub/b.py', 'python', imp('..', ['a']), repo)).toEqual(['pkg/a.py']);
    expect(resolveImport('pkg/sub/b.py', 'python', imp('.'), repo)).toEqual(['pkg/sub/__init__.py']);
    expect(resolveImport('pkg/a.py', 'python', imp('....far'), repo)).toEqual([]);
  });
});

describe('resolveImport: JavaScript / TypeScript', () => {
  const repo = files('src/a.ts', 'src/b.tsx', 'src/util/index.ts', 'src/legacy.js', 'src/types.d.ts', 'src/data.json');
  it.each([
    ['./a', ['src/a.ts']],
    ['./a.js', ['src/a.ts']],
    ['./b', ['src/b.tsx']],
    ['./util', ['src/util/index.ts']],
    ['./legacy', ['src/legacy.js']],
    ['./legacy.js', ['src/legacy.js']],
    ['./types', ['src/types.d.ts']],
    ['./data.json', ['src/data.json']],
    ['react', []],
    ['../../outside', []],
  ])('%s', (source, expected) => {
    expect(resolveImport('src/main.ts', 'typescript', imp(source), repo)).toEqual(expected);
  });
});

describe('resolveImport: JVM, Go, C, Rust, others', () => {
  it('maps Java packages to directories', () => {
    const repo = files('src/main/java/com/x/Y.java', 'src/main/java/com/x/Z.java', 'src/main/java/com/x/sub/W.java');
    expect(resolveImport('A.java', 'java', imp('com.x.Y'), repo)).toEqual(['src/main/java/com/x/Y.java']);
    expect(resolveImport('A.java', 'java', imp('com.x.Y.Inner'), repo)).toEqual(['src/main/java/com/x/Y.java']);
    expect(resolveImport('A.java', 'java', imp('com.x', ['*']), repo)).toEqual([
      'src/main/java/com/x/Y.java',
      'src/main/java/com/x/Z.java',
    ]);
    expect(resolveImport('A.java', 'java', imp('java.util.List'), repo)).toEqual([]);
  });

  it('maps Kotlin imports like Java', () => {
    const repo = files('app/src/main/kotlin/com/x/Y.kt');
    expect(resolveImport('A.kt', 'kotlin', imp('com.x.Y'), repo)).toEqual(['app/src/main/kotlin/com/x/Y.kt']);
  });

  it('maps Go import paths to the longest matching directory, without tests', () => {
    const repo = files('internal/store/a.go', 'internal/store/a_test.go', 'store/b.go', 'cmd/main.go');
    expect(resolveImport('cmd/main.go', 'go', imp('example.com/m/internal/store'), repo)).toEqual(['internal/store/a.go']);
    expect(resolveImport('cmd/main.go', 'go', imp('fmt'), repo)).toEqual([]);
  });

  it('resolves C includes relative to the file, then by suffix', () => {
    const repo = files('src/a.h', 'include/lib/b.h', 'other/lib/b.h', 'src/a.c');
    expect(resolveImport('src/a.c', 'c', imp('a.h'), repo)).toEqual(['src/a.h']);
    expect(resolveImport('src/a.c', 'cpp', imp('lib/b.h'), repo)).toEqual(['include/lib/b.h', 'other/lib/b.h']);
    expect(resolveImport('src/a.c', 'c', imp('stdio.h'), repo)).toEqual([]);
  });

  it('resolves Rust modules and crate paths', () => {
    const repo = files('src/lib.rs', 'src/a.rs', 'src/a/b.rs', 'src/c/mod.rs', 'src/c/d.rs');
    expect(resolveImport('src/lib.rs', 'rust', imp('a'), repo)).toEqual(['src/a.rs']);
    expect(resolveImport('src/lib.rs', 'rust', imp('c'), repo)).toEqual(['src/c/mod.rs']);
    expect(resolveImport('src/a.rs', 'rust', imp('b'), repo)).toEqual(['src/a/b.rs']);
    expect(resolveImport('src/c/d.rs', 'rust', imp('crate::a::b::Thing'), repo)).toEqual(['src/a/b.rs']);
    expect(resolveImport('src/c/d.rs', 'rust', imp('super::Item'), repo)).toEqual(['src/c/mod.rs']);
    expect(resolveImport('src/a/b.rs', 'rust', imp('super::super::c::d'), repo)).toEqual(['src/c/d.rs']);
    expect(resolveImport('src/lib.rs', 'rust', imp('std::io'), repo)).toEqual([]);
  });

  it('resolves Ruby requires and shell sources', () => {
    const repo = files('lib/shop.rb', 'lib/shop/cart.rb', 'bin/run.sh', 'bin/lib/common.sh');
    expect(resolveImport('lib/shop.rb', 'ruby', imp('shop/cart'), repo)).toEqual(['lib/shop/cart.rb']);
    expect(resolveImport('bin/x.rb', 'ruby', imp('shop'), repo)).toEqual(['lib/shop.rb']);
    expect(resolveImport('bin/run.sh', 'bash', imp('./lib/common.sh'), repo)).toEqual(['bin/lib/common.sh']);
    expect(resolveImport('bin/run.sh', 'bash', imp('$HOME/x.sh'), repo)).toEqual([]);
  });

  it('returns nothing for languages without rules', () => {
    expect(resolveImport('a.cs', 'csharp', imp('System.Text'), files('System/Text.cs'))).toEqual([]);
    expect(resolveImport('a.x', 'unknown', imp('a'), files('a'))).toEqual([]);
  });
});

describe('resolveImport: languages without import resolution', () => {
  const repo = files('Models/Order.cs', 'Models/Customer.cs', 'Sources/App/Order.swift', 'Sources/App/Cart.swift');
  it('gives C# `using` and Swift `import` no edges: they name namespaces and modules, not files', () => {
    expect(resolveImport('Program.cs', 'csharp', imp('Models'), repo)).toEqual([]);
    expect(resolveImport('Program.cs', 'csharp', imp('Models.Order'), repo)).toEqual([]);
    expect(resolveImport('Sources/App/main.swift', 'swift', imp('App'), repo)).toEqual([]);
  });

  it('answers every language id, and nothing for an id the parser does not know', () => {
    for (const language of LANGUAGE_IDS) expect(() => resolveImport('x', language, imp('y'), repo)).not.toThrow();
    expect(resolveImport('x.lua', 'lua', imp('./Order'), files('Order.lua'))).toEqual([]);
  });
});
