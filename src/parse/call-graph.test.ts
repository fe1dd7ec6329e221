import { describe, expect, it } from 'vitest';
import { sameFileCallGraph } from './call-graph.js';
import type { CodeSymbol, SymbolKind } from './symbol-model.js';

function sym(kind: SymbolKind, qualifiedName: string, callees: string[] = []): CodeSymbol {
  const dot = qualifiedName.lastIndexOf('.');
  return {
    name: qualifiedName.slice(dot + 1),
    qualifiedName,
    kind,
    parent: dot === -1 ? null : qualifiedName.slice(0, dot),
    startLine: 1,
    endLine: 1,
    signature: '',
    doc: null,
    callees,
    bases: [],
  };
}

describe('sameFileCallGraph', () => {
  it('prefers a method of the caller’s own class, then top-level functions, then anything', () => {
    const symbols = [
      sym('class', 'A'),
      sym('method', 'A.run', ['save', 'load', 'render', 'print']),
      sym('method', 'A.save'),
      sym('class', 'B'),
      sym('method', 'B.save'),
      sym('method', 'B.load'),
      sym('function', 'load'),
      sym('method', 'B.render'),
      sym('method', 'C.render'),
    ];
    const graph = sameFileCallGraph(symbols);
    expect(graph.get('A.run')!.invokes).toEqual(['A.save', 'load', 'B.render', 'C.render']);
    expect(graph.get('A.save')!.invokedBy).toEqual(['A.run']);
    expect(graph.get('B.save')!.invokedBy).toEqual([]);
    expect(graph.get('load')!.invokedBy).toEqual(['A.run']);
  });

  it('resolves calls from closures inside methods against the enclosing class', () => {
    const graph = sameFileCallGraph([
      sym('class', 'A'),
      sym('method', 'A.run'),
      sym('function', 'A.run.inner', ['helper']),
      sym('method', 'A.helper'),
      sym('function', 'helper'),
    ]);
    expect(graph.get('A.run.inner')!.invokes).toEqual(['A.helper']);
  });

  it('maps constructor calls to the class and keeps recursion', () => {
    const graph = sameFileCallGraph([sym('class', 'Foo'), sym('function', 'make', ['Foo', 'make', 'unknown'])]);
    expect(graph.get('make')).toEqual({ invokes: ['Foo', 'make'], invokedBy: ['make'] });
    expect(graph.get('Foo')!.invokedBy).toEqual(['make']);
  });

  it('gives overloads one entry and dedupes edges', () => {
    const graph = sameFileCallGraph([
      sym('function', 'f', ['g']),
      sym('function', 'f', ['g', 'g']),
      sym('function', 'g'),
      sym('function', 'g'),
    ]);
    expect([...graph.keys()]).toEqual(['f', 'g']);
    expect(graph.get('f')).toEqual({ invokes: ['g'], invokedBy: [] });
    expect(graph.get('g')).toEqual({ invokes: [], invokedBy: ['f'] });
  });

  it('orders invokedBy by symbol order', () => {
    const graph = sameFileCallGraph([sym('function', 'z', ['t']), sym('function', 'a', ['t']), sym('function', 't')]);
    expect(graph.get('t')!.invokedBy).toEqual(['z', 'a']);
  });
});
