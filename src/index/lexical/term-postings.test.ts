import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs } from '../../../test/cli/harness.js';
import { layerCorpus } from '../../../test/helpers/layer-corpus.js';
import { mulberry32 as random } from '../../../test/helpers/mulberry32.js';
import { bm25Chunks, chunksWithBodyPhrase, chunksWithBodyPhraseUpTo, indexGeneration, POSTINGS_MIN_TERMS, type Bm25ChunkOptions, type ChunkScore, type WeightedToken } from './chunk-queries.js';
import { exactBm25 } from './exact-bm25.js';
import { postingsRead } from './postings-corpus.js';
import { termStatistics } from './term-statistics.js';
import { bodyPhraseChunks } from './body-phrases.js';
import { codeTokens } from '../store/code-tokens.js';
import type { FieldWeights } from '../store/index-schema.js';
import { RepositoryIndex } from '../repository-index.js';

afterAll(cleanupTempDirs);

let root: string;
let repository: RepositoryIndex;
let vocabulary: string[];
let indexPath: string;
let texts: string[];

beforeAll(async () => {
  ({ root, texts, indexPath } = layerCorpus(join(import.meta.dirname, '..'), 'reponav-postings-'));
  vocabulary = [...new Set(texts.flatMap((text) => codeTokens(text)))].sort();
  repository = await RepositoryIndex.open(root, { indexPath });
  await repository.refresh();
  return () => repository.close();
});

const WEIGHT_SETS: FieldWeights[] = [
  { path: 2, name: 4, signature: 2, doc: 1, body: 1 },
  { path: 0, name: 0, signature: 0, doc: 0, body: 1 },
  { path: 1.5, name: 3.3, signature: 0.7, doc: 0.1, body: 1.1 },
];

/** Queries of 1 to 120 terms (vocabulary words, a few absent ones), repeats 1–4, under every weight set, kind filter and limit. */
function cases(seed: number): { terms: WeightedToken[]; options: Bm25ChunkOptions }[] {
  const next = random(seed);
  const out: { terms: WeightedToken[]; options: Bm25ChunkOptions }[] = [];
  for (let q = 0; q < 24; q++) {
    const size = [1, 3, 16, 40, 120][q % 5]!;
    const terms: WeightedToken[] = [];
    for (let i = 0; i < size; i++) {
      const token = next() < 0.05 ? `absent${i}` : vocabulary[Math.floor(next() * vocabulary.length)]!;
      terms.push({ token, repeat: 1 + Math.floor(next() * 4) });
    }
    for (const weights of WEIGHT_SETS) {
      for (const kinds of [undefined, ['function' as const], ['class' as const, 'file' as const]]) {
        out.push({ terms, options: { weights, kinds, limit: [1, 7, 40, 10_000][(q + out.length) % 4]! } });
      }
    }
  }
  return out;
}

/** Best first, equal scores by id: bm25Chunks leaves their order to its caller. */
function inTieOrder(scores: ChunkScore[]): ChunkScore[] {
  return [...scores].sort((a, b) => b.score - a.score || a.id - b.id);
}

function expectSameResults(seed: number): number {
  let compared = 0;
  for (const { terms, options } of cases(seed)) {
    const fts5 = inTieOrder(bm25Chunks(repository.store, terms, { ...options, scorer: 'fts5' }));
    const postings = inTieOrder(bm25Chunks(repository.store, terms, { ...options, scorer: 'postings' }));
    // Bitwise the same scores (toEqual uses Object.is on numbers) and the same chunks; retrieval orders equal scores itself (hit-order.ts).
    expect(postings, JSON.stringify({ terms, options })).toEqual(fts5);
    compared += fts5.length;
  }
  return compared;
}

describe('exact BM25 over postings', () => {
  it('returns what FTS5 returns, to the bit, for queries of every length, weights, kinds and limits', () => {
    // The postings path must actually run (bm25Chunks falls back to FTS5 on null).
    const generation = indexGeneration(repository.store);
    expect(exactBm25(repository.store, generation, [{ repeat: 1, tokens: vocabulary.slice(0, 50) }], [2, 4, 2, 1, 1])?.ids.length).toBeGreaterThan(10);
    expect(expectSameResults(1)).toBeGreaterThan(5000);
    // Once postings are read, `auto` scores short queries from them too: still FTS5's results.
    const short = [{ token: 'return', repeat: 2 }, { token: 'store', repeat: 1 }];
    const options = { weights: WEIGHT_SETS[0]!, limit: 30 };
    expect(inTieOrder(bm25Chunks(repository.store, short, options))).toEqual(inTieOrder(bm25Chunks(repository.store, short, { ...options, scorer: 'fts5' })));
  });

  it('reads postings on the first long query of a connection, never for short ones', async () => {
    const fresh = await RepositoryIndex.open(root, { indexPath });
    try {
      const generation = indexGeneration(fresh.store);
      const terms = (n: number) => vocabulary.slice(100, 100 + n).map((token) => ({ token, repeat: 1 }));
      const options = { weights: WEIGHT_SETS[0]!, limit: 20 };
      bm25Chunks(fresh.store, terms(POSTINGS_MIN_TERMS - 1), options);
      expect(postingsRead(fresh.store, generation)).toBe(false);
      const first = bm25Chunks(fresh.store, terms(POSTINGS_MIN_TERMS), options);
      // The first long query is scored from postings (no FTS5 query first), with FTS5's results.
      expect(postingsRead(fresh.store, generation)).toBe(true);
      expect(inTieOrder(first)).toEqual(inTieOrder(bm25Chunks(fresh.store, terms(POSTINGS_MIN_TERMS), { ...options, scorer: 'fts5' })));
    } finally {
      fresh.close();
    }
  });

  it('reads postings on the first query whose terms occur in as many chunks as there are rows', async () => {
    const fresh = await RepositoryIndex.open(root, { indexPath });
    try {
      const generation = indexGeneration(fresh.store);
      const { rows, documents } = termStatistics(fresh.store, vocabulary);
      const byCount = [...vocabulary].sort((a, b) => documents.get(b)! - documents.get(a)! || (a < b ? -1 : 1));
      const options = { weights: WEIGHT_SETS[0]!, limit: 20 };
      // Three rare words: FTS5 answers, nothing is read.
      bm25Chunks(fresh.store, byCount.slice(-3).map((token) => ({ token, repeat: 1 })), options);
      expect(postingsRead(fresh.store, generation)).toBe(false);
      // The fewest common words whose chunks add up to the row count (well under 16 terms).
      const common: string[] = [];
      for (let sum = 0; sum < rows; sum += documents.get(common[common.length - 1]!)!) common.push(byCount[common.length]!);
      expect(common.length).toBeLessThan(POSTINGS_MIN_TERMS);
      const terms = common.map((token) => ({ token, repeat: 1 }));
      const scored = bm25Chunks(fresh.store, terms, options);
      expect(postingsRead(fresh.store, generation)).toBe(true);
      expect(inTieOrder(scored)).toEqual(inTieOrder(bm25Chunks(fresh.store, terms, { ...options, scorer: 'fts5' })));
    } finally {
      fresh.close();
    }
  });

  it('stays exact after the index changes (a file edited, one added)', async () => {
    writeFileSync(join(root, 'src', 'extra.py'), 'def load_cookies(jar):\n    """Read cookies."""\n    return jar.read()\n');
    writeFileSync(join(root, 'src', 'index.ts'), `${readFileSync(join(root, 'src', 'index.ts'), 'utf8')}\n// cookies jar twin\n`);
    await repository.refresh();
    vocabulary.push('cookies', 'jar');
    expect(expectSameResults(2)).toBeGreaterThan(5000);
  });

  it('cuts equal scores at the limit by path, as FTS5 does', async () => {
    for (const name of ['c', 'a', 'b']) writeFileSync(join(root, 'src', `twin_${name}.py`), 'def twin(jar):\n    return jar\n');
    await repository.refresh();
    for (const terms of [[{ token: 'twin', repeat: 2 }], [{ token: 'twin', repeat: 2 }, { token: 'absent', repeat: 1 }, { token: 'jar', repeat: 3 }]]) {
      const options = { weights: WEIGHT_SETS[0]!, limit: 2 };
      const postings = bm25Chunks(repository.store, terms, { ...options, scorer: 'postings' });
      expect(inTieOrder(postings)).toEqual(inTieOrder(bm25Chunks(repository.store, terms, { ...options, scorer: 'fts5' })));
      const paths = repository.store.chunksByIds(postings.map((h) => h.id));
      expect(postings.map((h) => paths.get(h.id)?.path)).toEqual(['src/twin_a.py', 'src/twin_b.py']);
    }
  });

  it('answers body phrase lookups as FTS5 does once postings are read', async () => {
    const next = random(3);
    const sequences: string[][] = [];
    for (let i = 0; i < 150; i++) {
      const tokens = codeTokens(texts[Math.floor(next() * texts.length)]!);
      const start = Math.floor(next() * tokens.length);
      const sequence = tokens.slice(start, start + 2 + Math.floor(next() * 6));
      // Half of them real sequences, half with one word swapped (these mostly match nothing).
      if (i % 2 === 1) sequence[Math.floor(next() * sequence.length)] = vocabulary[Math.floor(next() * vocabulary.length)]!;
      sequences.push(sequence);
    }
    // Repeated words, and short common sequences that match many chunks (cut by the limit).
    sequences.push(['self', 'self'], ['return', 'return'], ['const', 'db', 'indexconnection', 'store'], ['store', 'indexstore'], ['import', 'type'], ['export', 'function']);
    bm25Chunks(repository.store, [{ token: 'return', repeat: 1 }], { weights: WEIGHT_SETS[0]!, limit: 1, scorer: 'postings' });
    const plain = await RepositoryIndex.open(root, { indexPath });
    try {
      let found = 0;
      let many = 0;
      for (const sequence of sequences) {
        // Matched on postings and offsets here, never handed back to FTS5.
        expect(bodyPhraseChunks(repository.store, indexGeneration(repository.store), sequence), sequence.join(' ')).not.toBeNull();
        for (const limit of [1, 3, 50]) {
          const expected = chunksWithBodyPhrase(plain.store, sequence, limit);
          expect(chunksWithBodyPhrase(repository.store, sequence, limit), `${sequence.join(' ')} (limit ${limit})`).toEqual(expected);
          if (limit === 50 && expected.length > 0) found++;
          if (limit === 3 && expected.length === 3) many++;
        }
        // The at-most form: the same chunks when few enough hold the phrase, null when more do; on postings and on FTS5.
        for (const max of [1, 2, 20]) {
          const upTo = chunksWithBodyPhrase(plain.store, sequence, max + 1);
          const expected = upTo.length > max ? null : upTo;
          expect(chunksWithBodyPhraseUpTo(repository.store, sequence, max), `${sequence.join(' ')} (at most ${max})`).toEqual(expected);
          expect(chunksWithBodyPhraseUpTo(plain.store, sequence, max)).toEqual(expected);
        }
      }
      expect(found).toBeGreaterThan(40);
      expect(many).toBeGreaterThan(5);
    } finally {
      plain.close();
    }
  });
});
