import { describe, expect, it } from 'vitest';
import { sym } from './__fixtures__/scaffold-fixtures.js';
import { sameFileCalls } from './same-file-calls.js';

describe('sameFileCalls', () => {
  it('resolves self-calls to siblings and plain calls to top-level functions', () => {
    const graph = sameFileCalls([
      sym('A', 'class', 1, 50),
      sym('A.run', 'method', 2, 10, { callees: ['self.step', 'helper', 'print', 'A.run'] }),
      sym('A.step', 'method', 11, 20),
      sym('B', 'class', 51, 90),
      sym('B.step', 'method', 52, 60),
      sym('helper', 'function', 91, 95, { callees: ['A'] }),
    ]);
    expect(graph.get('A.run')).toEqual({ invokes: ['A.step', 'helper'], invokedBy: [] });
    expect(graph.get('A.step')!.invokedBy).toEqual(['A.run']);
    expect(graph.get('B.step')!.invokedBy).toEqual([]);
    expect(graph.get('A')!.invokedBy).toEqual(['helper']);
  });

  it('resolves qualified callees exactly and skips unknown receivers', () => {
    const graph = sameFileCalls([
      sym('Util', 'class', 1, 10),
      sym('Util.make', 'method', 2, 5),
      sym('main', 'function', 20, 30, { callees: ['Util.make', 'os.path.join', 'obj.make'] }),
      sym('join', 'function', 40, 45),
    ]);
    expect(graph.get('main')!.invokes).toEqual(['Util.make']);
  });

  it('orders callers by file position', () => {
    const graph = sameFileCalls([
      sym('z', 'function', 50, 60, { callees: ['t'] }),
      sym('a', 'function', 10, 20, { callees: ['t'] }),
      sym('t', 'function', 1, 5),
    ]);
    expect(graph.get('t')!.invokedBy).toEqual(['a', 'z']);
  });
});
