// vitest: own module graph: asserts a grammar's first load, which another file in the same graph may have done.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadGrammar } from './grammar-loader.js';

afterEach(() => vi.restoreAllMocks());

describe('loadGrammar', () => {
  it('holds the event loop open with a ref\'d timer while the grammar compiles, and clears it once loaded', async () => {
    // Node.js 20 can deadlock when the loop runs dry while only V8 work (a wasm compile) is pending.
    const started = vi.spyOn(globalThis, 'setInterval');
    const cleared = vi.spyOn(globalThis, 'clearInterval');
    const pending = loadGrammar('rust');
    expect(started).toHaveBeenCalledTimes(1);
    const timer = started.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(true);
    expect(cleared).not.toHaveBeenCalled();
    const grammar = await pending;
    expect(grammar.id).toBe('rust');
    expect(cleared).toHaveBeenCalledWith(timer);
    // A cached grammar is not loaded again, so it holds nothing.
    expect(await loadGrammar('rust')).toBe(grammar);
    expect(started).toHaveBeenCalledTimes(1);
  });
});
