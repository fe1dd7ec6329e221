import { describe, expect, it } from 'vitest';
import { callSitesOf } from './call-sites.js';

describe('callSitesOf', () => {
  it('finds only real calls, with their receivers (never the definition, comments or strings)', async () => {
    const py = ['def helper(a):', '    """helper() in a docstring"""', '    # helper() in a comment', '    s = "helper()"', '    helper(1)', '    self.helper(2)', '    obj.inner.helper(3)', ''].join('\n');
    expect(await callSitesOf('a.py', py, 'helper')).toEqual([
      { line: 5, receiver: null },
      { line: 6, receiver: 'self' },
      { line: 7, receiver: 'obj.inner' },
    ]);
  });

  it('reads receivers written with ->, ::, ?. and navigation suffixes', async () => {
    const kt = 'fun main() {\n  // helper()\n  val s = "helper()"\n  helper()\n  obj?.helper()\n  Foo.helper()\n}\n';
    expect(await callSitesOf('a.kt', kt, 'helper')).toEqual([
      { line: 4, receiver: null },
      { line: 5, receiver: 'obj' },
      { line: 6, receiver: 'Foo' },
    ]);
    const cpp = 'void f() {\n  helper();\n  p->helper();\n  ns::A::helper();\n  helper<int>();\n}\n';
    expect(await callSitesOf('a.cpp', cpp, 'helper')).toEqual([
      { line: 2, receiver: null },
      { line: 3, receiver: 'p' },
      { line: 4, receiver: 'ns::A' },
      { line: 5, receiver: null },
    ]);
    const php = '<?php\nfunction f() {\n  helper();\n  $this->helper();\n  Foo::helper();\n}\n';
    expect(await callSitesOf('a.php', php, 'helper')).toEqual([
      { line: 3, receiver: null },
      { line: 4, receiver: '$this' },
      { line: 5, receiver: 'Foo' },
    ]);
  });

  it('answers null for a file whose language is not parsed', async () => {
    expect(await callSitesOf('notes.txt', 'helper()', 'helper')).toBeNull();
  });
});
