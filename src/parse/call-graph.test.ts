import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { sameFileCallGraph } from './call-graph.js';
import type { CallRef, CodeSymbol, SymbolKind } from './symbol-model.js';

function sym(kind: SymbolKind, qualifiedName: string, calls: CallRef[] = [], lines: [number, number] = [1, 1]): CodeSymbol {
  const dot = qualifiedName.lastIndexOf('.');
  return {
    name: qualifiedName.slice(dot + 1),
    qualifiedName,
    kind,
    parent: dot === -1 ? null : qualifiedName.slice(0, dot),
    startLine: lines[0],
    endLine: lines[1],
    signature: '',
    doc: null,
    callees: [...new Set(calls.map(([name]) => name))],
    calls,
    bases: [],
  };
}

const python = { language: 'python', text: null };
const java = { language: 'java', text: null };

describe('sameFileCallGraph', () => {
  it('links a call through another receiver to no method of the file (flask: _cv_app.get is not _AppCtxGlobals.get)', () => {
    const symbols = [
      sym('class', '_AppCtxGlobals'),
      sym('method', '_AppCtxGlobals.get', [['get', 'self.__dict__']]),
      sym('method', '_AppCtxGlobals.pop', [['get', 'self']]),
      sym('function', 'has_app_context', [['get', '_cv_app']]),
      sym('function', 'plain', [['get', null]]),
    ];
    const graph = sameFileCallGraph(symbols, python);
    expect(graph.get('_AppCtxGlobals.get')!.invokedBy).toEqual(['_AppCtxGlobals.pop']);
    expect(graph.get('has_app_context')!.invokes).toEqual([]);
    expect(graph.get('plain')!.invokes).toEqual([]);
  });

  it('links the class name, and a variable declared with the class when the text is at hand', () => {
    const text = ['class Meter:', '    def tick(self): pass', 'def run():', '    m = Meter()', '    m.tick()', '    Meter.tick(m)', ''].join('\n');
    const symbols = [
      sym('class', 'Meter', [], [1, 2]),
      sym('method', 'Meter.tick', [], [2, 2]),
      sym('function', 'run', [['Meter', null], ['tick', 'm']], [3, 5]),
      sym('function', 'by_class', [['tick', 'Meter']], [6, 6]),
    ];
    expect(sameFileCallGraph(symbols, { language: 'python', text }).get('Meter.tick')!.invokedBy).toEqual(['run', 'by_class']);
    // Without the text the variable cannot be told: no edge rather than a guess.
    expect(sameFileCallGraph(symbols, python).get('Meter.tick')!.invokedBy).toEqual(['by_class']);
  });

  it('lets a plain call reach the own class’s method only where the language has an implicit this', () => {
    const symbols = [sym('class', 'A'), sym('method', 'A.run', [['save', null]]), sym('method', 'A.save'), sym('function', 'save')];
    expect(sameFileCallGraph(symbols, java).get('A.run')!.invokes).toEqual(['A.save']);
    expect(sameFileCallGraph(symbols, python).get('A.run')!.invokes).toEqual(['save']);
  });

  it('resolves calls from closures inside methods against the enclosing class and function', () => {
    const graph = sameFileCallGraph(
      [
        sym('class', 'A'),
        sym('method', 'A.run', [['inner', null]]),
        sym('function', 'A.run.inner', [['helper', 'self']]),
        sym('method', 'A.helper'),
        sym('function', 'helper'),
      ],
      python,
    );
    expect(graph.get('A.run.inner')!.invokes).toEqual(['A.helper']);
    expect(graph.get('A.run')!.invokes).toEqual(['A.run.inner']);
  });

  it('maps constructor calls to the class and keeps resolved recursion', () => {
    const graph = sameFileCallGraph([sym('class', 'Foo'), sym('function', 'make', [['Foo', null], ['make', null], ['unknown', null]])], python);
    expect(graph.get('make')).toEqual({ invokes: ['Foo', 'make'], invokedBy: ['make'] });
    expect(graph.get('Foo')!.invokedBy).toEqual(['make']);
  });

  it('gives overloads one entry and dedupes edges', () => {
    const graph = sameFileCallGraph([sym('function', 'f', [['g', null]]), sym('function', 'f', [['g', null], ['h', null]]), sym('function', 'g'), sym('function', 'h')], python);
    expect(graph.get('f')!.invokes).toEqual(['g', 'h']);
    expect(graph.get('g')!.invokedBy).toEqual(['f']);
  });

  it('reads hand-built callees as written when a symbol has no parsed calls', () => {
    const bare = { ...sym('method', 'A.run'), callees: ['self.save', 'other.save'], calls: undefined };
    const graph = sameFileCallGraph([sym('class', 'A'), bare, sym('method', 'A.save')], python);
    expect(graph.get('A.save')!.invokedBy).toEqual(['A.run']);
  });

  // Generated cases: for random receivers around one method, an edge exists exactly when the receiver is the own
  // object or the class name (no text: no variable resolves). Prints the failing seed.
  it('never links a receiver it cannot resolve (seeded random receivers)', () => {
    const receivers = ['self', 'this', 'cls', 'Meter', 'other', '_cv_app', 'self.__dict__', 'x.Meter', 'Meter()', 'meter', 'super()', 'm', null];
    for (let seed = 1; seed <= 200; seed++) {
      let state = seed;
      const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      const receiver = receivers[Math.floor(next() * receivers.length)];
      const inClass = next() < 0.5;
      const caller = inClass ? sym('method', 'Meter.caller', [['tick', receiver]]) : sym('function', 'caller', [['tick', receiver]]);
      const graph = sameFileCallGraph([sym('class', 'Meter'), sym('method', 'Meter.tick'), caller], python);
      const own = receiver !== null && ['self', 'this', 'cls', 'super()'].includes(receiver);
      const className = receiver !== null && /(^|\.)Meter(\(\))?$/.test(receiver);
      const expected = (own && inClass) || className;
      expect(graph.get('Meter.tick')!.invokedBy.length === 1, `seed ${seed}: receiver ${receiver}, in class ${inClass}`).toBe(expected);
    }
  });

  it('with `only`, gives exactly the full graph’s entries of those symbols (seeded random files; the seed is in each message)', () => {
    const names = ['get', 'tick', 'run', 'load', 'save', 'close'];
    const receivers = ['self', 'this', 'cls', 'Meter', 'Gauge', 'other', 'super()', 'Meter()', null];
    let compared = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const random = mulberry32(seed);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
      const calls = (): CallRef[] => Array.from({ length: Math.floor(random() * 5) }, (): CallRef => [pick(names), pick(receivers)]);
      const symbols: CodeSymbol[] = [];
      for (const owner of ['Meter', 'Gauge']) {
        symbols.push(sym('class', owner, calls()));
        for (let i = 0; i < 1 + Math.floor(random() * 4); i++) symbols.push(sym('method', `${owner}.${pick(names)}`, calls()));
      }
      for (let i = 0; i < Math.floor(random() * 4); i++) symbols.push(sym('function', pick(names), calls()));
      const file = random() < 0.5 ? python : java;
      const full = sameFileCallGraph(symbols, file);
      const only = new Set(symbols.filter(() => random() < 0.3).map((s) => s.qualifiedName));
      const part = sameFileCallGraph(symbols, file, only);
      expect([...part.keys()].sort(), `seed ${seed}`).toEqual([...only].sort());
      for (const name of only) expect(part.get(name), `seed ${seed}: ${name}`).toEqual(full.get(name));
      compared += only.size;
    }
    expect(compared).toBeGreaterThan(100);
  });
});

