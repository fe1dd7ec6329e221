import { appendFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { RepositoryIndex } from '../index/repository-index.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { patchFileIndex } from './file-documents-update.js';
import { fileDocumentIndex, indexDocuments, scoreFileDocuments, type FileDocumentIndex } from './file-documents.js';
import type { PackedFileIndex } from './file-postings.js';

// Counts full reads of every file's names: a patched update must not make one.
const fullNameReads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../index/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../index/index.js')>();
  return {
    ...actual,
    definedNamesByFile: (...args: Parameters<typeof actual.definedNamesByFile>) => {
      fullNameReads.count++;
      return actual.definedNamesByFile(...args);
    },
  };
});

/** An index as plain values, terms in stored order (a patch must keep them ascending, as a fresh build stores them). */
const canonical = (index: PackedFileIndex) => ({
  paths: [...index.paths],
  lengths: [...index.lengths],
  averageLength: index.averageLength,
  postings: [...index.postings.entries()].map(([token, list]) => [token, [...list.files], [...list.counts]]),
});

/** A seeded pseudo-random source (tests must be repeatable). */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const VOCABULARY = ['cart', 'item', 'price', 'tax', 'round', 'money', 'user', 'login', 'token', 'cache', 'flow', 'run', 'task', 'retry'];

function randomDocument(next: () => number): string[] {
  return Array.from({ length: 1 + Math.floor(next() * 12) }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]!);
}

describe('patchFileIndex', () => {
  it('gives the index a fresh build gives, after edits, additions, removals and renames (seeded random trials)', () => {
    for (let trial = 0; trial < 60; trial++) {
      const next = random(trial + 1);
      const before = new Map<string, { state: string; tokens: string[] }>();
      for (let i = 0; i < 5 + Math.floor(next() * 30); i++) before.set(`pkg/m${i.toString().padStart(3, '0')}.py`, { state: 's0', tokens: randomDocument(next) });
      const after = new Map(before);
      for (const path of [...before.keys()]) {
        const roll = next();
        if (roll < 0.1) after.delete(path);
        else if (roll < 0.2) after.set(path, { state: 's1', tokens: randomDocument(next) });
        else if (roll < 0.25) {
          after.delete(path);
          after.set(path.replace('pkg/', 'lib/'), { state: 's0', tokens: before.get(path)!.tokens });
        }
      }
      for (let i = 0; i < Math.floor(next() * 4); i++) after.set(`pkg/new${trial}-${i}.py`, { state: 's0', tokens: randomDocument(next) });
      const sortedPaths = (m: Map<string, unknown>) => [...m.keys()].sort();
      const build = (m: Map<string, { tokens: string[] }>) => indexDocuments(sortedPaths(m), sortedPaths(m).map((p) => m.get(p)!.tokens));
      const states = (m: Map<string, { state: string }>) => ({ paths: sortedPaths(m), states: sortedPaths(m).map((p) => m.get(p)!.state) });

      const asked: string[] = [];
      const patched = patchFileIndex(build(before), states(before), states(after), (paths) => (asked.push(...paths), paths.map((p) => after.get(p)!.tokens)), Infinity);
      const fresh = build(after);
      expect(patched, `trial ${trial}`).not.toBeNull();
      expect(canonical(patched!), `trial ${trial}`).toEqual(canonical(fresh));
      // Only changed and new files are tokenized again.
      for (const path of asked) expect(before.get(path)?.state === after.get(path)!.state && before.has(path)).toBe(false);
      const query = VOCABULARY.slice(trial % 5, (trial % 5) + 4).map((token) => ({ token, weight: 1 }));
      expect(scoreFileDocuments({ ...patched!, buildMs: 0 }, query)).toEqual(scoreFileDocuments({ ...fresh, buildMs: 0 }, query));
    }
  });

  it('gives the index a fresh build gives after edits that keep every path (seeded random trials: terms dropped, new, merged)', () => {
    const words = [...VOCABULARY, 'alpha', 'beta', 'gamma', 'delta', 'omega', 'zeta'];
    for (let trial = 0; trial < 120; trial++) {
      const next = random(1000 + trial);
      const doc = () => Array.from({ length: 1 + Math.floor(next() * 10) }, () => words[Math.floor(next() * (trial % 2 ? words.length : VOCABULARY.length))]!);
      const paths = Array.from({ length: 1 + Math.floor(next() * 40) }, (_, i) => `pkg/m${i.toString().padStart(3, '0')}.py`);
      const before = paths.map(() => doc());
      // Each file edited with some chance (none at all in some trials); an edited document may be empty.
      const share = [0, 0.05, 0.3, 1][trial % 4]!;
      const edited = before.map((tokens) => (next() < share ? (next() < 0.1 ? [] : doc()) : tokens));
      const states = (docs: string[][], tag: (i: number) => string) => ({ paths, states: docs.map((_, i) => tag(i)) });
      const beforeStates = states(before, () => 's0');
      const afterStates = states(edited, (i) => (edited[i] === before[i] ? 's0' : 's1'));
      const patched = patchFileIndex(indexDocuments(paths, before), beforeStates, afterStates, (asked) => asked.map((p) => edited[paths.indexOf(p)]!), Infinity);
      expect(patched, `trial ${trial}`).not.toBeNull();
      expect(canonical(patched!), `trial ${trial}`).toEqual(canonical(indexDocuments(paths, edited)));
    }
  });

  it('declines when more files changed than allowed, or when the stored states do not match the stored index', () => {
    const index = indexDocuments(['a.py', 'b.py'], [['cart'], ['tax']]);
    const before = { paths: ['a.py', 'b.py'], states: ['1', '1'] };
    const documents = (paths: string[]) => paths.map(() => ['money']);
    expect(patchFileIndex(index, before, { paths: ['a.py', 'b.py'], states: ['2', '2'] }, documents, 1)).toBeNull();
    expect(patchFileIndex(index, { paths: ['a.py'], states: ['1'] }, before, documents, 10)).toBeNull();
    expect(patchFileIndex(index, before, { paths: ['a.py', 'b.py'], states: ['2', '1'] }, documents, 1)?.postings.get('cart')).toBeUndefined();
  });
});

const fixtures = fixtureRepositories('file-documents-update');
afterAll(() => fixtures.cleanUp());

describe('file-level documents after a change to the index', () => {
  const identity = (repository: RepositoryIndex): FileDocumentIndex => fileDocumentIndex(repository.store, 'identity');

  it('are patched from the stored index (no full read of every name) and equal a fresh build', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`shop/module_${i}.py`] = `class Widget${i}:\n    def resize_${i}(self):\n        pass\n`;
    const repository = await fixtures.indexed(files);
    identity(repository);
    const root = join(dirname(repository.store.path), 'repo');

    appendFileSync(join(root, 'shop/module_3.py'), 'def checkout_total(cart):\n    return 0\n');
    writeFileSync(join(root, 'shop/refunds.py'), 'def refund_order(order):\n    return order\n');
    rmSync(join(root, 'shop/module_7.py'));
    renameSync(join(root, 'shop/module_9.py'), join(root, 'shop/renamed_9.py'));
    await repository.refresh();
    const reads = fullNameReads.count;
    const patched = identity(repository);
    expect(fullNameReads.count).toBe(reads);
    expect(Array.from(patched.postings.get('checkout')?.files ?? [], (f) => patched.paths[f])).toEqual(['shop/module_3.py']);
    expect(patched.paths).not.toContain('shop/module_7.py');

    // A fresh build of the same state (stored files removed; another open, as a new process) is the same index.
    for (const suffix of ['', '-states']) rmSync(`${repository.store.path}.file-identity-v2${suffix}.cache`);
    const second = await RepositoryIndex.open(root, { indexPath: repository.store.path });
    await second.refresh();
    const fresh = identity(second);
    expect(fullNameReads.count).toBe(reads + 1);
    expect(canonical(patched)).toEqual(canonical(fresh));
    second.close();
    repository.close();
  });
});


describe('patchFileIndex over successive edits (the postings overlay)', () => {
  it('after every one of a chain of edits scores, lists, counts and serializes as a fresh build (seeded random trials)', () => {
    const words = [...VOCABULARY, 'alpha', 'beta', 'gamma', 'delta'];
    for (let trial = 0; trial < 60; trial++) {
      const next = random(5000 + trial);
      const doc = () => Array.from({ length: Math.floor(next() * 10) }, () => words[Math.floor(next() * words.length)]!);
      const paths = Array.from({ length: 1 + Math.floor(next() * 30) }, (_, i) => `pkg/m${i.toString().padStart(3, '0')}.py`);
      let docs = paths.map(() => doc());
      let index: PackedFileIndex = indexDocuments(paths, docs);
      let states = paths.map(() => 's0');
      for (let step = 1; step <= 8; step++) {
        // Mostly the same few files again (an agent's edits), sometimes others.
        const edited = docs.map((tokens, i) => (next() < (i < 3 ? 0.6 : 0.05) ? doc() : tokens));
        const after = edited.map((tokens, i) => (tokens === docs[i] ? states[i]! : `s${step}`));
        const patched = patchFileIndex(index, { paths, states }, { paths, states: after }, (asked) => asked.map((p) => edited[paths.indexOf(p)]!), Infinity);
        const fresh = indexDocuments(paths, edited);
        const where = `trial ${trial}, edit ${step}`;
        expect(patched, where).not.toBeNull();
        expect(canonical(patched!), where).toEqual(canonical(fresh));
        expect(patched!.postings.size, where).toBe(fresh.postings.size);
        for (const word of [...words, 'absent']) {
          const list = patched!.postings.get(word);
          const want = fresh.postings.get(word);
          expect(list && [[...list.files], [...list.counts]], `${where}: ${word}`).toEqual(want && [[...want.files], [...want.counts]]);
        }
        const packed = patched!.postings.packed();
        const freshPacked = fresh.postings.packed();
        expect([[...packed.terms], [...packed.starts], [...packed.files], [...packed.counts]], where).toEqual([[...freshPacked.terms], [...freshPacked.starts], [...freshPacked.files], [...freshPacked.counts]]);
        index = patched!;
        docs = edited;
        states = after;
      }
    }
  });
});
