import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CodeSymbol } from '../../parse/symbol-model.js';
import { buildChunks } from './build-chunks.js';

function symbol(name: string, kind: CodeSymbol['kind'], startLine: number, endLine: number): CodeSymbol {
  return { name, qualifiedName: name, kind, parent: null, startLine, endLine, signature: `def ${name}()`, doc: null, callees: [], bases: [] };
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

describe('buildChunks', () => {
  const texts = {
    'LF with a final newline': 'class Shop:\n    def add(self):\n        def inner():\n            return 1\n        return inner\n\nx = 1\n',
    'CRLF without a final newline': 'class Shop:\r\n    def add(self):\r\n        def inner():\r\n            return 1\r\n        return inner\r\n\r\nx = 1',
  };
  for (const [label, text] of Object.entries(texts)) {
    it(`cuts symbol chunks as the lines they span (${label})`, () => {
      const symbols = [symbol('Shop', 'class', 1, 5), symbol('add', 'method', 2, 5), symbol('inner', 'function', 3, 4), symbol('ghost', 'function', 7, 40)];
      const chunks = buildChunks({ path: 'shop/cart.py', symbols }, text);
      const lines = text.split('\n');
      const span = (start: number, end: number) => lines.slice(start - 1, end).join('\n');
      const bySymbol = new Map(chunks.filter((c) => c.symbol).map((c) => [`${c.kind}:${c.symbol}`, c]));
      expect(bySymbol.get('function:add')!.contentHash).toBe(sha1(span(2, 5)));
      expect(bySymbol.get('function:inner')!.contentHash).toBe(sha1(span(3, 4)));
      expect(bySymbol.get('class:Shop')!.contentHash).toBe(sha1(span(1, 1)));
      // A span past the end (a stale parse) reads to the end of the text, as slicing lines would.
      expect(bySymbol.get('function:ghost')!.contentHash).toBe(sha1(span(7, 40)));
      expect(bySymbol.get('function:add')!.fields.body).toBe('def add self def inner return return inner');
    });
  }
});
