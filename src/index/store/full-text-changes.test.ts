import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiTokens } from './full-text-changes.js';

/** A seeded pseudo-random source (tests must be repeatable). */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

// What a field may hold, and what it must never be confused by: both cases, digits, `_`, separators, non-ASCII letters.
const PIECES = ['get', 'Cart', 'HTTP', 'x', '_', '__init__', '42', ' ', '  ', '.', '-', '/', '\t', '\n', 'é', 'Ärger', 'ΣΑΣ', '日本', '😀', 'Z', 'a1B2'];

describe('asciiTokens', () => {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='ascii tokenchars ''_'''); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
  const insert = db.prepare('INSERT INTO t(rowid, x) VALUES (?, ?)');
  const tokensOf = db.prepare('SELECT term FROM v WHERE doc = ? ORDER BY offset');
  afterAll(() => db.close());

  it("splits and lower-cases as FTS5's ascii tokenizer with tokenchars '_' does (seeded random strings)", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      const value = Array.from({ length: Math.floor(next() * 12) }, () => PIECES[Math.floor(next() * PIECES.length)]!).join('');
      insert.run(seed, value);
      const fts5 = (tokensOf.all(seed) as { term: string }[]).map((row) => row.term);
      expect(asciiTokens(value), `seed ${seed}: ${JSON.stringify(value)}`).toEqual(fts5);
    }
  });
});
