import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../test/cli/harness.js';
import { indexGeneration } from '../store/index-generation.js';
import { indexConnection } from '../store/index-store.js';
import { corpusOf, POSTINGS_BOUND, readCorpus } from './postings-corpus.js';
import { RepositoryIndex } from '../repository-index.js';
import { scoringWarm, warmScoring } from './scoring-warmup.js';
import { byFrequency, vocabularyInSteps } from './term-statistics.js';
import { rowVocabularyView } from './fts-views.js';

afterAll(cleanupTempDirs);

/** The reference: FTS5's vocabulary by document frequency in one query (what the warm-up read whole before it read in pages). */
function vocabularyByFrequency(store: RepositoryIndex['store'], minDocuments: number): Array<[string, number]> {
  const db = indexConnection(store);
  return db.prepare(`SELECT term, doc FROM ${rowVocabularyView(db)} WHERE doc >= ? ORDER BY doc DESC, term`).raw().all(minDocuments) as Array<[string, number]>;
}

/** A realistic corpus: the index layer's own sources (a vocabulary of thousands of tokens). */
function sourceTree(): string {
  const root = join(tempDir('reponav-warmup-'), 'repo');
  const layer = join(import.meta.dirname, '..');
  for (const name of readdirSync(layer, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    mkdirSync(dirname(join(root, 'src', name)), { recursive: true });
    copyFileSync(join(layer, name), join(root, 'src', name));
  }
  return root;
}

let root: string;
beforeAll(() => {
  root = sourceTree();
});

describe('vocabularyInSteps', () => {
  it('lists what the one-query read lists, in its order, whatever the page size, and stops when asked', async () => {
    const repository = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmup-idx-'), 'v.db') });
    try {
      await repository.refresh();
      const db = indexConnection(repository.store);
      const everyRow = db.prepare(`SELECT term, doc, cnt FROM ${rowVocabularyView(db)}`).raw().all();
      for (const minDocuments of [1, 2, 5]) {
        const whole = vocabularyByFrequency(repository.store, minDocuments);
        expect(whole.length).toBeGreaterThan(1000);
        for (const pageSize of [1, 7, 333, 2000]) {
          let steps = 0;
          const rows = await vocabularyInSteps(repository.store, async () => (steps++, true), pageSize);
          expect(rows && byFrequency(rows, minDocuments), `min ${minDocuments}, page ${pageSize}`).toEqual(whole);
          if (minDocuments === 1) expect(rows, `page ${pageSize}: every row, in term order`).toEqual(everyRow);
          if (pageSize < 2000) expect(steps).toBeGreaterThan(1);
        }
      }
      let calls = 0;
      expect(await vocabularyInSteps(repository.store, async () => ++calls < 3, 100)).toBeNull();
      expect(calls).toBe(3);
    } finally {
      repository.close();
    }
  });
});

describe('warmScoring', () => {
  it('caches the postings of every frequent term', async () => {
    const warm = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmup-idx-'), 'b.db') });
    try {
      await warm.refresh();
      const report = await warmScoring(warm.store);
      expect(report.stopped).toBe('done');
      expect(report.terms).toBeGreaterThan(500);
      expect(scoringWarm(warm.store)).toBe(true);
      const corpus = readCorpus(warm.store, indexGeneration(warm.store))!;
      const frequent = vocabularyByFrequency(warm.store, 2).map(([term]) => term).filter((term) => /^[a-z0-9_]+$/.test(term));
      expect(frequent.length).toBeGreaterThan(500);
      expect(frequent.every((term) => corpus.pinned.has(term))).toBe(true);
    } finally {
      warm.close();
    }
  });

  it('stops at its budget, when aborted, and when the index state changes', async () => {
    const repository = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmup-idx-'), 'c.db') });
    try {
      await repository.refresh();
      const budget = await warmScoring(repository.store, { maxEntries: 50 });
      expect(budget.stopped).toBe('budget');
      expect(budget.entries).toBeLessThanOrEqual(50);

      const controller = new AbortController();
      controller.abort();
      expect((await warmScoring(repository.store, { signal: controller.signal })).stopped).toBe('aborted');

      const running = warmScoring(repository.store, { sliceMs: 0 });
      indexConnection(repository.store).exec("UPDATE meta SET value = value WHERE key = 'schema_version'");
      expect((await running).stopped).toBe('index-changed');
    } finally {
      repository.close();
    }
  });

  it('starts after the refresh that triggers it has answered: the caller resumes before any warm-up read', async () => {
    const repository = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmup-idx-'), 'h.db'), watch: true });
    try {
      await repository.refresh();
      // The refresh's caller runs first: the warm-up has not read the state's corpus yet.
      expect(readCorpus(repository.store, indexGeneration(repository.store))).toBeNull();
      const report = await repository.warmScoring();
      expect(report.terms).toBeGreaterThan(0);
      expect(scoringWarm(repository.store)).toBe(true);
    } finally {
      repository.close();
    }
  });

  it('runs after each refresh of a long-lived (watched) repository and stops at close', async () => {
    const repository = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmup-idx-'), 'd.db'), watch: true });
    try {
      await repository.refresh();
      const report = await repository.warmScoring();
      expect(report.terms).toBeGreaterThan(0);
      expect(scoringWarm(repository.store)).toBe(true);
      // Warm already: nothing more to read.
      expect((await repository.warmScoring()).terms).toBe(0);
    } finally {
      repository.close();
    }
    const oneShot = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmup-idx-'), 'e.db') });
    try {
      await oneShot.refresh();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(corpusOf(indexConnection(oneShot.store), indexGeneration(oneShot.store)).warmed).toBe(false);
    } finally {
      oneShot.close();
    }
  });

  it('runs the idle warmers once per index state, after the postings, and none when aborted', async () => {
    const seen: { warmedPostings: number }[] = [];
    const warmer = (store: Parameters<typeof warmScoring>[0]) => {
      seen.push({ warmedPostings: readCorpus(store, indexGeneration(store))?.pinned.size ?? 0 });
    };
    const repository = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmup-idx-'), 'f.db'), warmScoring: true, idleWarmers: [warmer] });
    try {
      await repository.refresh();
      const report = await repository.warmScoring();
      expect(report.warmers).toBe(1);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.warmedPostings).toBeGreaterThan(0);
      // The state is warm: neither the postings nor the warmer run again.
      expect((await repository.warmScoring()).warmers).toBe(0);
      expect(seen).toHaveLength(1);

      const controller = new AbortController();
      controller.abort();
      const aborted = await warmScoring(repository.store, { signal: controller.signal, warmers: [warmer] });
      expect(aborted).toMatchObject({ stopped: 'aborted', warmers: 0 });
      expect(seen).toHaveLength(1);
    } finally {
      repository.close();
    }
  });

  it('keeps the warmed postings when the on-demand cache passes its bound', async () => {
    const repository = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmup-idx-'), 'g.db') });
    try {
      await repository.refresh();
      await warmScoring(repository.store);
      const generation = indexGeneration(repository.store);
      const db = indexConnection(repository.store);
      const corpus = corpusOf(db, generation);
      const pinned = corpus.pinned.size;
      expect(pinned).toBeGreaterThan(500);
      // A long-lived process's searches read past the bound: the on-demand part is dropped, the warmed part stays.
      corpus.postings.set('not_a_warmed_term', null);
      corpus.cachedPostings = POSTINGS_BOUND + 1;
      expect(corpusOf(db, generation)).toBe(corpus);
      expect(corpus.postings.size).toBe(0);
      expect(corpus.pinned.size).toBe(pinned);
      expect(scoringWarm(repository.store)).toBe(true);
    } finally {
      repository.close();
    }
  });
});
