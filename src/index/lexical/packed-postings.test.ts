import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../test/cli/harness.js';
import { layerCorpus } from '../../../test/helpers/layer-corpus.js';
import { mulberry32 as random } from '../../../test/helpers/mulberry32.js';
import { codeTokens } from '../store/code-tokens.js';
import { indexConnection } from '../store/index-store.js';
import type { FieldWeights } from '../store/index-schema.js';
import { RepositoryIndex } from '../repository-index.js';
import { bodyPhraseChunks } from './body-phrases.js';
import { bm25Chunks, indexGeneration, type ChunkScore, type WeightedToken } from './chunk-queries.js';
import { unpackBodyOffsets, unpackPostings } from './packed-postings.js';
import { planUnits } from './postings-scan.js';
import type { VocabularyRow } from './term-statistics.js';
import { corpusOf, readCorpus } from './postings-corpus.js';
import { warmScoring } from './scoring-warmup.js';
import { instanceView, rowVocabularyView } from './fts-views.js';
import { isPlainIndexToken, postingsOf } from './term-postings.js';

afterAll(cleanupTempDirs);

let root: string;
let indexPath: string;
let texts: string[];
/** Warmed: pinned terms, every other one packed. */
let packed: RepositoryIndex;
/** Another connection to the same index, never warmed: today's reads from SQLite. */
let plain: RepositoryIndex;

beforeAll(async () => {
  ({ root, texts, indexPath } = layerCorpus(join(import.meta.dirname, '..'), 'reponav-packed-'));
  packed = await RepositoryIndex.open(root, { indexPath });
  await packed.refresh();
  plain = await RepositoryIndex.open(root, { indexPath });
  return () => {
    packed.close();
    plain.close();
  };
});

const WEIGHTS: FieldWeights[] = [
  { path: 2, name: 4, signature: 2, doc: 1, body: 1 },
  { path: 1.5, name: 3.3, signature: 0.7, doc: 0.1, body: 1.1 },
];

function inTieOrder(scores: ChunkScore[]): ChunkScore[] {
  return [...scores].sort((a, b) => b.score - a.score || a.id - b.id);
}

/** Scores of random queries (1–120 terms, a few absent) from both connections' postings: bitwise the same. */
function expectSameScores(seed: number, vocabulary: string[]): number {
  const next = random(seed);
  let compared = 0;
  for (let q = 0; q < 20; q++) {
    const terms: WeightedToken[] = [];
    for (let i = 0, size = [1, 5, 16, 40, 120][q % 5]!; i < size; i++) {
      terms.push({ token: next() < 0.05 ? `absent${i}` : vocabulary[Math.floor(next() * vocabulary.length)]!, repeat: 1 + Math.floor(next() * 3) });
    }
    for (const weights of WEIGHTS) {
      for (const kinds of [undefined, ['function' as const]]) {
        const options = { weights, kinds, limit: [3, 40, 10_000][q % 3]!, scorer: 'postings' as const };
        const expected = inTieOrder(bm25Chunks(plain.store, terms, options));
        // toEqual compares numbers with Object.is: the same bits.
        expect(inTieOrder(bm25Chunks(packed.store, terms, options)), JSON.stringify(terms)).toEqual(expected);
        compared += expected.length;
      }
    }
  }
  return compared;
}

describe('packed postings', () => {
  it('hold every term of the index state after the warm-up, with the same postings and body offsets as FTS5 gives', async () => {
    // A small pinned budget: most terms, the frequent ones too, come from the packed scan.
    const report = await warmScoring(packed.store, { maxEntries: 200 });
    expect(report.packedComplete).toBe(true);
    expect(report.packedTerms).toBeGreaterThan(1000);
    expect(report.packedBytes).toBeGreaterThan(0);
    const generation = indexGeneration(packed.store);
    const corpus = readCorpus(packed.store, generation)!;
    const plainDb = indexConnection(plain.store);
    const plainCorpus = corpusOf(plainDb, indexGeneration(plain.store));
    expect(plainCorpus.packed).toBeNull();
    const offsetsOf = plainDb.prepare(`SELECT group_concat(doc || ' ' || offset, ' ') FROM ${instanceView(plainDb)} WHERE term = ? AND col = 'body'`).pluck();
    let checked = 0;
    const packedDb = indexConnection(packed.store);
    for (const term of packedDb.prepare(`SELECT term FROM ${rowVocabularyView(packedDb)}`).pluck().all() as string[]) {
      const fromSql = postingsOf(plainDb, plainCorpus, term);
      if (corpus.pinned.has(term)) continue;
      const unpacked = unpackPostings(corpus.packed!, term);
      expect(unpacked, term).toEqual(fromSql);
      if (!unpacked) continue;
      const offsets = unpackBodyOffsets(corpus.packed!, term, unpacked)!;
      const pairs: string[] = [];
      for (let p = 0; p < unpacked.slots.length; p++) {
        for (let k = offsets.starts[p]!; k < offsets.starts[p + 1]!; k++) pairs.push(`${corpus.ids[unpacked.slots[p]!]} ${offsets.offsets[k]}`);
      }
      expect(pairs.join(' '), term).toBe((offsetsOf.get(term) as string | null) ?? '');
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
    // A term the index does not hold: no postings, from memory.
    expect(unpackPostings(corpus.packed!, 'not_in_this_index')).toEqual({ slots: new Int32Array(0), counts: new Uint16Array(0) });
  });

  it('score every query to the same bits as postings read from SQLite, and match the same body phrases', async () => {
    await warmScoring(packed.store, { maxEntries: 200 });
    const vocabulary = [...new Set(texts.flatMap((text) => codeTokens(text)))].sort();
    expect(expectSameScores(5, vocabulary)).toBeGreaterThan(3000);
    const next = random(7);
    let found = 0;
    for (let i = 0; i < 120; i++) {
      const tokens = codeTokens(texts[Math.floor(next() * texts.length)]!);
      const start = Math.floor(next() * tokens.length);
      const sequence = tokens.slice(start, start + 2 + Math.floor(next() * 5));
      if (i % 2 === 1) sequence[Math.floor(next() * sequence.length)] = vocabulary[Math.floor(next() * vocabulary.length)]!;
      if (!sequence.every(isPlainIndexToken)) continue;
      // Generations are per connection: each store's own.
      const expected = bodyPhraseChunks(plain.store, indexGeneration(plain.store), sequence);
      expect(expected, sequence.join(' ')).not.toBeNull();
      expect(bodyPhraseChunks(packed.store, indexGeneration(packed.store), sequence), sequence.join(' ')).toEqual(expected);
      if (expected!.length > 0) found++;
    }
    expect(found).toBeGreaterThan(30);
  });

  it('stop at their byte bound (the rest read as before) and go to the next index state less the terms its edit touched', async () => {
    const other = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-packed-idx-'), 'b.db') });
    try {
      await other.refresh();
      const report = await warmScoring(other.store, { maxEntries: 200, pack: 1 });
      expect(report.stopped).toBe('budget');
      expect(report.packedComplete).toBe(false);
      const corpus = readCorpus(other.store, indexGeneration(other.store))!;
      expect(unpackPostings(corpus.packed!, 'not_in_this_index')).toBeUndefined();
      writeFileSync(join(root, 'src', 'extra.py'), 'def load_cookies(jar):\n    """Read cookies."""\n    return jar.read()\n');
      await other.refresh();
      const generation = indexGeneration(other.store);
      const carried = corpusOf(indexConnection(other.store), generation).packed!;
      // A term the edit's rows hold is dropped and pending (read again, never taken as absent); the others stay.
      expect(carried.records.has('cookies')).toBe(false);
      expect(carried.pending.has('cookies')).toBe(true);
      expect(carried.pending.has('jar')).toBe(true);
      const again = await warmScoring(other.store, { maxEntries: 200 });
      expect(again.packedComplete).toBe(true);
      const cookies = postingsOf(indexConnection(other.store), corpusOf(indexConnection(other.store), generation), 'cookies');
      expect(cookies?.slots.length).toBeGreaterThan(0);
    } finally {
      other.close();
    }
  });

  it('plan ranges that never hold a skipped term, and big terms alone', () => {
    const vocabulary: VocabularyRow[] = [
      ['a', 1, 5],
      ['b', 1, 19_999],
      ['c', 1, 3],
      ['d', 1, 40_000],
      ['e', 1, 1],
      ['f', 1, 2],
      ['g', 1, 7],
    ];
    expect(planUnits(vocabulary, (term) => term === 'f')).toEqual([
      ['a', 'b'],
      ['c', 'c'],
      ['d', 'd'],
      ['e', 'e'],
      ['g', 'g'],
    ]);
  });
});
