import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { cleanupTempDirs, tempDir } from '../../../test/cli/harness.js';
import { bm25Chunks, bm25ChunksIn, type WeightedToken } from './chunk-queries.js';
import { FTS_FIELDS } from '../store/index-schema.js';
import { indexConnection } from '../store/index-store.js';
import { RepositoryIndex } from '../repository-index.js';
import { termStatistics } from './term-statistics.js';

afterAll(cleanupTempDirs);

const WEIGHTS = { path: 2, name: 4, signature: 2, doc: 1, body: 1 };
let root: string;
let repository: RepositoryIndex;

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeAll(async () => {
  const dir = tempDir('reponav-bm25-');
  root = join(dir, 'repo');
  write('pkg/cookies.py', 'def load_cookies(jar):\n    """Read cookies from the browser jar."""\n    return jar.read()\n\ndef save_cookies(jar, data):\n    jar.write(data)\n');
  write('pkg/network.py', 'def fetch(url, cookies=None):\n    return request(url, cookies)\n\ndef request(url, jar):\n    return jar\n');
  write('pkg/format.py', 'def format_size(n):\n    return str(n)\n\ndef parse_size(text):\n    return int(text)\n');
  // Identical chunks in three files score equally: only path order may decide which make a cut.
  for (const name of ['c', 'a', 'b']) write(`same/${name}.py`, 'def twin(jar):\n    return jar\n');
  repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index.db') });
  await repository.refresh();
  return () => repository.close();
});

/** The reference: one FTS5 query repeating each phrase `repeat` times (what bm25Chunks computes by groups). */
function repeatedPhraseQuery(terms: WeightedToken[]): { id: number; score: number }[] {
  const match = terms.flatMap((t) => Array<string>(t.repeat).fill(`"${t.token}"`)).join(' OR ');
  const columns = FTS_FIELDS.map((f) => WEIGHTS[f]).join(', ');
  const rows = indexConnection(repository.store)
    .prepare(`SELECT rowid AS id, bm25(chunks_fts, ${columns}) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank, rowid`)
    .all(match) as { id: number; rank: number }[];
  return rows.map((r) => ({ id: r.id, score: -r.rank }));
}

describe('bm25Chunks', () => {
  it('scores terms of different weights as the repeated-phrase query does', () => {
    const terms = [
      { token: 'cookies', repeat: 3 },
      { token: 'jar', repeat: 1 },
      { token: 'request', repeat: 2 },
      { token: 'size', repeat: 1 },
    ];
    const reference = repeatedPhraseQuery(terms).filter((r, i, all) => all.filter((o) => o.score === r.score).length === 1);
    const grouped = bm25Chunks(repository.store, terms, { weights: WEIGHTS, limit: 100 });
    expect(reference.length).toBeGreaterThan(3);
    for (const row of reference) {
      const mine = grouped.find((g) => g.id === row.id);
      expect(mine?.score).toBeCloseTo(row.score, 9);
    }
    expect(grouped.map((g) => g.score)).toEqual([...grouped.map((g) => g.score)].sort((a, b) => b - a));
  });

  it('cuts equal scores at the limit by path, with one weight or several', async () => {
    for (const terms of [[{ token: 'twin', repeat: 2 }], [{ token: 'twin', repeat: 2 }, { token: 'nothing', repeat: 1 }, { token: 'size', repeat: 1 }]]) {
      const hits = bm25Chunks(repository.store, terms, { weights: WEIGHTS, limit: 2 });
      const paths = repository.store.chunksByIds(hits.map((h) => h.id));
      expect(hits.map((h) => paths.get(h.id)?.path)).toEqual(['same/a.py', 'same/b.py']);
    }
  });

  it('counts a token sent twice as one term with the summed repeat', () => {
    const twice = bm25Chunks(repository.store, [{ token: 'jar', repeat: 1 }, { token: 'jar', repeat: 2 }, { token: 'size', repeat: 1 }], { weights: WEIGHTS, limit: 50 });
    const once = bm25Chunks(repository.store, [{ token: 'jar', repeat: 3 }, { token: 'size', repeat: 1 }], { weights: WEIGHTS, limit: 50 });
    expect(twice).toEqual(once);
  });
});

describe('termStatistics', () => {
  it('counts the chunks holding each token, and sees a refresh that changed them', async () => {
    const before = termStatistics(repository.store, ['twin', 'cookies', 'absent']);
    expect(before.documents.get('twin')).toBe(3);
    expect(before.documents.get('absent')).toBe(0);
    expect(before.rows).toBeGreaterThanOrEqual(9);
    write('same/d.py', 'def twin(jar):\n    return jar\n');
    await repository.refresh();
    const after = termStatistics(repository.store, ['twin']);
    expect(after.documents.get('twin')).toBe(4);
    expect(after.rows).toBeGreaterThan(before.rows);
  });
});

describe('bm25ChunksIn', () => {
  const VOCABULARY = ['cookies', 'jar', 'request', 'size', 'twin', 'url', 'data', 'read', 'nothing', 'format'];

  it('gives each chunk of the subset the score of the whole-index search, and nothing outside it (generated cases, both scorers)', () => {
    const all = indexConnection(repository.store).prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
    for (const scorer of ['fts5', 'postings'] as const) {
      for (let seed = 1; seed <= 40; seed++) {
        const next = mulberry32(seed);
        const terms = VOCABULARY.filter(() => next() < 0.4).map((token) => ({ token, repeat: 1 + Math.floor(next() * 4) }));
        const subset = all.filter(() => next() < 0.5);
        const where = `seed ${seed} ${scorer} ${JSON.stringify(terms)} ${JSON.stringify(subset)}`;
        const whole = bm25Chunks(repository.store, terms, { weights: WEIGHTS, limit: 10_000, scorer });
        const expected = whole.filter((h) => subset.includes(h.id)).sort((a, b) => a.id - b.id);
        // After the postings scorer ran, `auto` reads the postings; before, FTS5.
        const restricted = bm25ChunksIn(repository.store, terms, WEIGHTS, subset, scorer === 'fts5' ? 'fts5' : 'auto').sort((a, b) => a.id - b.id);
        expect(restricted.map((r) => r.id), where).toEqual(expected.map((h) => h.id));
        restricted.forEach((r, i) => expect(r.score, where).toBeCloseTo(expected[i]!.score, 9));
      }
    }
  });

  it('returns nothing for no terms or no chunks', () => {
    expect(bm25ChunksIn(repository.store, [], WEIGHTS, [1, 2])).toEqual([]);
    expect(bm25ChunksIn(repository.store, [{ token: 'jar', repeat: 1 }], WEIGHTS, [])).toEqual([]);
  });
});
