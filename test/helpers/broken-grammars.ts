/**
 * Grammars that fail to load, for tests of failed parses. A test file mocks
 * the grammar loader with {@link withBrokenGrammars} and names the broken
 * grammars in {@link brokenGrammars}:
 *
 *   vi.mock('../parse/grammar-loader.js', async (original) =>
 *     (await import('../../test/helpers/broken-grammars.js')).withBrokenGrammars(original));
 *
 * Every file of a broken grammar's language is then a failed parse.
 */
import type * as GrammarLoader from '../../src/parse/grammar-loader.js';

/** Ids of the grammars that fail to load (clear it after each test). */
export const brokenGrammars = new Set<string>();

/** The real grammar loader, but `loadGrammar` rejects for every id in {@link brokenGrammars}. */
export async function withBrokenGrammars(importOriginal: <T>() => Promise<T>): Promise<typeof GrammarLoader> {
  const real = await importOriginal<typeof GrammarLoader>();
  return {
    ...real,
    loadGrammar: (id: Parameters<typeof real.loadGrammar>[0]) =>
      brokenGrammars.has(id) ? Promise.reject(new Error('grammar failed to load')) : real.loadGrammar(id),
  };
}
