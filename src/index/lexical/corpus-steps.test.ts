import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../test/cli/harness.js';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { RepositoryIndex } from '../repository-index.js';
import { indexGeneration } from '../store/index-generation.js';
import { IndexStore, indexConnection } from '../store/index-store.js';
import { corpusInSteps, corpusOf, type Corpus } from './postings-corpus.js';

afterAll(cleanupTempDirs);

const WORDS = ['cache', 'token', 'parse', 'request', 'header', 'value', 'build', 'index', 'query', 'score'];

/** An indexed generated tree of `files` Python modules, with ids left sparse by a deleted file. */
async function indexedTree(seed: number, files: number): Promise<RepositoryIndex> {
  const random = mulberry32(seed);
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const root = join(tempDir('reponav-corpus-steps-'), 'repo');
  mkdirSync(join(root, 'pkg'), { recursive: true });
  for (let i = 0; i < files; i++) {
    const functions = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, f) => `def ${word()}_${f}(${word()}):\n    return ${word()}.${word()}(${word()})\n`);
    writeFileSync(join(root, `pkg/m${i}.py`), functions.join('\n'));
  }
  const repository = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-corpus-steps-idx-'), 'i.db') });
  await repository.refresh({ workers: 0 });
  return repository;
}

/** The fields a fresh read determines (the generation string is the connection's own). */
function readFields(corpus: Corpus) {
  return { rows: corpus.rows, ids: [...corpus.ids], lengths: [...corpus.lengths], norms: [...corpus.norms], slotById: corpus.slotById && [...corpus.slotById], slotOf: corpus.slotOf && [...corpus.slotOf] };
}

const go = () => Promise.resolve(true);

describe('corpusInSteps', () => {
  it('reads in pages exactly what one read gives, for any page size (seeded trees; the seed is in each message)', async () => {
    for (const seed of [7, 8, 9]) {
      const repository = await indexedTree(seed, 20 + seed * 3);
      try {
        // Another connection to the same index reads the corpus whole: the reference.
        const other = IndexStore.open(repository.store.path);
        const reference = readFields(corpusOf(indexConnection(other), indexGeneration(other)));
        other.close();
        expect(reference.ids.length, `seed ${seed}`).toBeGreaterThan(20);
        for (const pageSize of [1, 7, 333, reference.ids.length, reference.ids.length + 1, 100_000]) {
          // A connection of its own for each page size: none holds a corpus yet.
          const store = IndexStore.open(repository.store.path);
          try {
            const db = indexConnection(store);
            let pages = 0;
            const corpus = await corpusInSteps(db, indexGeneration(store), () => (pages++, go()), pageSize);
            expect(corpus, `seed ${seed}, page ${pageSize}`).not.toBeNull();
            expect(readFields(corpus!), `seed ${seed}, page ${pageSize}`).toEqual(reference);
            expect(pages, `seed ${seed}, page ${pageSize}`).toBe(Math.floor(reference.ids.length / pageSize) + 1);
            // It is the state's corpus from then on: a search takes the same object.
            expect(corpusOf(db, indexGeneration(store)), `seed ${seed}, page ${pageSize}`).toBe(corpus);
          } finally {
            store.close();
          }
        }
      } finally {
        repository.close();
      }
    }
  });

  it('stops when told to, and takes the corpus a search read meanwhile', async () => {
    const repository = await indexedTree(11, 30);
    try {
      const store = IndexStore.open(repository.store.path);
      try {
        const db = indexConnection(store);
        const generation = indexGeneration(store);
        expect(await corpusInSteps(db, generation, () => Promise.resolve(false), 5)).toBeNull();
        // A search reads the corpus whole between two pages: the pages' own read is dropped for it.
        let searched: Corpus | null = null;
        const corpus = await corpusInSteps(db, generation, () => ((searched ??= corpusOf(db, generation)), go()), 5);
        expect(corpus).toBe(searched);
      } finally {
        store.close();
      }
    } finally {
      repository.close();
    }
  });
});
