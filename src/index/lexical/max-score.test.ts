import { describe, expect, it } from 'vitest';
import { mulberry32 as random } from '../../../test/helpers/mulberry32.js';
import { scoreQuery, type ScanMethod } from './exact-bm25.js';
import type { ExactScores, QueryTerms } from './max-score.js';
import { K1, type Corpus } from './postings-corpus.js';

/** The scratch and ids of a corpus of `size` slots, as postings-corpus.ts lays them out (no SQLite: scoring reads only these). */
function scratchCorpus(size: number, next: () => number): Corpus {
  return {
    ids: Float64Array.from({ length: size }, (_, slot) => 3 * slot + 1),
    kinds: Uint8Array.from({ length: size }, () => Math.floor(next() * 4)),
    group: new Float64Array(size),
    total: new Float64Array(size),
    mark: new Uint8Array(size),
    touched: new Int32Array(size),
    inGroup: new Int32Array(size),
  } as unknown as Corpus;
}

interface Generated {
  corpus: Corpus;
  terms: QueryTerms;
  weights: number[];
  allowed: boolean[] | null;
  limits: number[];
}

/**
 * A random corpus and query: a vocabulary whose document frequencies run from
 * one chunk to most of them, chunk lengths and term frequencies (few distinct
 * ones in some seeds, so keys tie at the cut), 1–200 query terms in 1–4
 * groups of repeats, sometimes a kind filter, and several cuts.
 */
function generate(seed: number): Generated {
  const next = random(seed);
  const size = [50, 300, 2_000, 9_000, 20_000][Math.floor(next() * 5)]!;
  const corpus = scratchCorpus(size, next);
  const ties = next() < 0.3;
  const lengths = Float64Array.from({ length: size }, () => (ties ? 8 : 1 + Math.floor(next() * next() * 400)));
  let average = 0;
  for (const length of lengths) average += length / size;
  const norms = lengths.map((length) => K1 * (1 - 0.75 + (0.75 * length) / average));
  const weights = next() < 0.5 ? [1, 1, 1, 1, 1] : [Math.floor(next() * 5), 1 + Math.floor(next() * 5), Math.floor(next() * 3), 1, 1];
  const termCount = 1 + Math.floor(next() ** 2 * 200);
  const groupCount = 1 + Math.floor(next() * next() * 4);
  const slots: Int32Array[] = [];
  const values: Float64Array[] = [];
  const groupEnds: number[] = [];
  const repeats: number[] = [];
  for (let g = 0; g < groupCount; g++) {
    const count = g === groupCount - 1 ? termCount - slots.length : Math.floor(termCount / groupCount);
    for (let t = 0; t < count; t++) {
      // Document frequency: skewed, from one chunk to ~90% of them.
      const fraction = next() < 0.15 ? 0.3 + next() * 0.6 : next() ** 4 * 0.3;
      const taken: number[] = [];
      for (let slot = 0; slot < size; slot++) if (next() < fraction) taken.push(slot);
      if (taken.length === 0 && next() < 0.8) taken.push(Math.floor(next() * size));
      const documents = taken.length;
      const idf = Math.max(1e-6, Math.log((size - documents + 0.5) / (documents + 0.5)));
      const termValues = new Float64Array(documents);
      taken.forEach((slot, p) => {
        const columns = weights.map(() => (ties ? (next() < 0.8 ? 1 : 0) : Math.floor(next() ** 3 * 6)));
        let f = 0;
        for (let c = 0; c < weights.length; c++) f += columns[c]! * weights[c]!;
        termValues[p] = idf * ((f * (K1 + 1.0)) / (f + norms[slot]!));
      });
      slots.push(Int32Array.from(taken));
      values.push(termValues);
    }
    groupEnds.push(slots.length);
    repeats.push(1 + Math.floor(next() * 5));
  }
  // Repeats are distinct per group, as bm25Chunks groups them; one group keeps its own.
  const distinct = repeats.map((r, i) => r + i * 5);
  const allowed = next() < 0.3 ? [true, false, next() < 0.5, false] : null;
  const limits = [1, 2, 7, 160, 1 + Math.floor(next() * size), size - 1].filter((k) => k >= 1 && k < size);
  return { corpus, terms: { slots, values, groupEnds, repeats: distinct, single: groupCount === 1 }, weights, allowed, limits };
}

/** Equal to the bit, element by element, in order. */
function same(a: ExactScores, b: ExactScores): boolean {
  const bits = (x: Float64Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);
  return bits(a.ids).equals(bits(b.ids)) && bits(a.keys).equals(bits(b.keys)) && bits(a.scores).equals(bits(b.scores));
}

describe('block-max MaxScore', () => {
  it('returns the exhaustive block scan’s chunks, keys and scores to the bit and in its order (generated corpora and queries)', () => {
    let compared = 0;
    let pruned = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const { corpus, terms, weights, allowed, limits } = generate(seed);
      for (const limit of limits) {
        // Interleaved on one corpus: each method starts from the scratch the other left.
        const run = (method: ScanMethod) => scoreQuery(corpus, terms, weights, limit, allowed, method);
        const reference = run('blocks');
        const maxScore = run('max-score');
        const again = run('blocks');
        const context = `seed ${seed}, limit ${limit}, ${terms.slots.length} terms, ${corpus.ids.length} chunks`;
        if (!same(reference, maxScore) || !same(reference, again)) {
          expect({ ids: [...maxScore.ids], keys: [...maxScore.keys] }, context).toEqual({ ids: [...reference.ids], keys: [...reference.keys] });
          expect.fail(`scores differ: ${context}`);
        }
        compared += reference.ids.length;
        if (limit < reference.ids.length) pruned++;
      }
    }
    // Ties ran across the cut (more kept than the limit) in some cases, and many chunks were compared.
    expect(pruned).toBeGreaterThan(10);
    expect(compared).toBeGreaterThan(10_000);
  });

  it('keeps every chunk tied with the cut', () => {
    const corpus = scratchCorpus(1000, random(3));
    const slots = Int32Array.from({ length: 1000 }, (_, i) => i);
    const values = new Float64Array(1000).fill(0.5);
    values[10] = 2;
    const terms: QueryTerms = { slots: [slots], values: [values], groupEnds: [1], repeats: [1], single: true };
    const answer = scoreQuery(corpus, terms, [1, 1, 1, 1, 1], 5, null, 'max-score');
    expect(answer.ids.length).toBe(1000);
    expect(answer.keys[10]).toBe(2);
  });
});
