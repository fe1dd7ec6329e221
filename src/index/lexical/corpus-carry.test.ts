import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../test/cli/harness.js';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { RepositoryIndex } from '../repository-index.js';
import { indexGeneration } from '../store/index-generation.js';
import { indexConnection } from '../store/index-store.js';
import { FTS_FIELDS, fullTextLog } from '../store/index.js';
import { bm25Chunks, type WeightedToken } from './chunk-queries.js';
import { corpusOf, readCorpus } from './postings-corpus.js';
import { postingsOf } from './term-postings.js';
import { warmScoring } from './scoring-warmup.js';
import { termStatistics } from './term-statistics.js';

afterAll(cleanupTempDirs);

/** A small vocabulary, so edits touch terms that many other chunks hold too (the carried postings must not go stale). */
const WORDS = ['cache', 'token', 'parse', 'request', 'header', 'value', 'build', 'index', 'query', 'score', 'file', 'path', 'node', 'tree', 'user', 'name'];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** A Python module of a few functions named and filled from WORDS. */
function moduleText(random: () => number): string {
  const lines: string[] = [];
  const functions = 1 + Math.floor(random() * 4);
  for (let f = 0; f < functions; f++) {
    lines.push(`def ${pick(random, WORDS)}_${pick(random, WORDS)}_${f}(${pick(random, WORDS)}):`);
    lines.push(`    """${pick(random, WORDS)} the ${pick(random, WORDS)}."""`);
    const body = 1 + Math.floor(random() * 4);
    for (let b = 0; b < body; b++) lines.push(`    ${pick(random, WORDS)} = ${pick(random, WORDS)}.${pick(random, WORDS)}(${pick(random, WORDS)})`);
    lines.push(`    return ${pick(random, WORDS)}`, '');
  }
  return lines.join('\n');
}

/** A repository of `files` generated modules (pkg/m0.py …) opened with an index of its own, not yet refreshed. */
async function generatedRepository(random: () => number, files: number): Promise<{ root: string; repository: RepositoryIndex }> {
  const root = join(tempDir('reponav-carry-'), 'repo');
  mkdirSync(join(root, 'pkg'), { recursive: true });
  for (let i = 0; i < files; i++) writeFileSync(join(root, `pkg/m${i}.py`), moduleText(random));
  return { root, repository: await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-carry-idx-'), 'i.db') }) };
}

const WEIGHTS = Object.fromEntries(FTS_FIELDS.map((field, i) => [field, 1 + i])) as Record<(typeof FTS_FIELDS)[number], number>;

/** The postings scorer's best `limit` chunks for `query` equal FTS5's own, scores to the bit. */
function expectScoredAsFts5(repository: RepositoryIndex, query: WeightedToken[], limit: number, message?: string): void {
  const options = { weights: WEIGHTS, limit };
  expect(bm25Chunks(repository.store, query, { ...options, scorer: 'postings' }), message).toEqual(bm25Chunks(repository.store, query, { ...options, scorer: 'fts5' }));
}

describe('the scoring corpus carried across a refresh', () => {
  it('scores every query as FTS5 does after random edits, warm-ups and new words (seeded; the seed is in each message)', async () => {
    let carried = 0;
    let patched = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const random = mulberry32(seed);
      const root = join(tempDir('reponav-carry-'), 'repo');
      const paths = Array.from({ length: 12 }, (_, i) => `pkg/m${i}.py`);
      for (const path of paths) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), moduleText(random));
      }
      const repository = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-carry-idx-'), 'i.db') });
      try {
        await repository.refresh();
        for (let step = 0; step < 14; step++) {
          const message = `seed ${seed}, step ${step}`;
          // A query first: the corpus of this state is read (or carried), so the next refresh has one to carry.
          const query = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({ token: pick(random, [...WORDS, `novel${step % 3}`]), repeat: 1 + Math.floor(random() * 2) }));
          expectScoredAsFts5(repository, query, 25, message);
          const tokens = [...new Set(query.map((q) => q.token))];
          const counted = termStatistics(repository.store, tokens);
          const truth = indexConnection(repository.store).prepare('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?').pluck();
          for (const token of tokens) expect(counted.documents.get(token), `${message}, ${token}`).toBe(truth.get(`"${token}"`));
          expect(counted.rows, message).toBe(indexConnection(repository.store).prepare('SELECT count(*) FROM chunks_fts').pluck().get());
          const corpus = readCorpus(repository.store, indexGeneration(repository.store));
          if (corpus && corpus.ids.some((id) => id < 0)) carried++;
          patched += corpus?.edit?.patched ?? 0;
          if (random() < 0.4) await warmScoring(repository.store, { sliceMs: 1 });
          // An edit: rewrite a module (sometimes with a word no chunk held), delete one, or add one.
          const action = random();
          const path = pick(random, paths);
          if (action < 0.7) writeFileSync(join(root, path), moduleText(random) + (random() < 0.5 ? `\ndef novel${step % 3}():\n    return 1\n` : ''));
          else if (action < 0.85) rmSync(join(root, path), { force: true });
          else writeFileSync(join(root, `pkg/new_${seed}_${step}.py`), moduleText(random));
          await repository.refresh();
        }
      } finally {
        repository.close();
      }
    }
    // The carry ran (a removed chunk's slot is left empty): the equalities above are about it, not about fresh reads.
    expect(carried).toBeGreaterThan(10);
    // And touched terms were patched from their lists before the edit (postings-patch.ts), not only read again.
    expect(patched).toBeGreaterThan(20);
  });
});

describe('a patched postings list', () => {
  it('is refused when FTS5 vocabulary disagrees with it: the term is read from the index instead', async () => {
    const random = mulberry32(7);
    const { root, repository } = await generatedRepository(random, 6);
    try {
      await repository.refresh();
      const query = WORDS.map((token) => ({ token, repeat: 1 }));
      bm25Chunks(repository.store, query, { weights: WEIGHTS, limit: 25, scorer: 'postings' });
      writeFileSync(join(root, 'pkg/m0.py'), moduleText(random));
      await repository.refresh();
      const db = indexConnection(repository.store);
      const corpus = corpusOf(db, indexGeneration(repository.store));
      const touched = WORDS.filter((token) => corpus.edit?.previous.has(token));
      expect(touched.length).toBeGreaterThan(3);
      // A wrong state before the edit (the term in no chunk): the vocabulary check must catch it.
      for (const token of touched) corpus.edit!.previous.set(token, { slots: new Int32Array(0), counts: new Uint16Array(0) });
      expectScoredAsFts5(repository, query, 25);
      expect(corpus.edit!.patched).toBe(0);
      for (const token of touched) expect(postingsOf(db, corpus, token)!.slots.length, token).toBeGreaterThan(0);
    } finally {
      repository.close();
    }
  });
});

describe('the warm-up of a carried state', () => {
  it('pins again only the terms the edit touched, and leaves none waiting to be packed', async () => {
    const random = mulberry32(11);
    const { root, repository } = await generatedRepository(random, 8);
    try {
      await repository.refresh();
      const first = await warmScoring(repository.store);
      expect(first.packedComplete).toBe(true);
      writeFileSync(join(root, 'pkg/m3.py'), `${moduleText(random)}\ndef novel_word():\n    return 1\n`);
      await repository.refresh();
      const corpus = corpusOf(indexConnection(repository.store), indexGeneration(repository.store));
      const touched = new Set([...corpus.carried!.repin, ...corpus.packed!.pending]);
      expect(touched.has('novel')).toBe(true);
      const again = await warmScoring(repository.store);
      expect(again).toMatchObject({ stopped: 'done', terms: touched.size, packedComplete: true });
      expect(corpus.packed!.pending.size).toBe(0);
      expect(corpus.warmed).toBe(true);
      const query = [...WORDS, 'novel'].map((token) => ({ token, repeat: 1 }));
      expectScoredAsFts5(repository, query, 40);
    } finally {
      repository.close();
    }
  });
});

describe('a rolled-back write', () => {
  it('ends the full-text log, so the next state is read afresh and still scores as FTS5 does', async () => {
    const { repository } = await generatedRepository(mulberry32(13), 5);
    try {
      await repository.refresh();
      const query = WORDS.map((token) => ({ token, repeat: 1 }));
      bm25Chunks(repository.store, query, { weights: WEIGHTS, limit: 25, scorer: 'postings' });
      const db = indexConnection(repository.store);
      expect(fullTextLog(db, 'scoring-corpus')?.whole).toBe(true);
      expect(() =>
        repository.store.transaction(() => {
          repository.store.deleteFile('pkg/m1.py');
          throw new Error('a write that fails half-way');
        }),
      ).toThrow('half-way');
      expect(fullTextLog(db, 'scoring-corpus')?.whole).toBe(false);
      expectScoredAsFts5(repository, query, 25);
    } finally {
      repository.close();
    }
  });
});
