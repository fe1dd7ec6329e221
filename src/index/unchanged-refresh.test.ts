/**
 * The rule: a refresh that finds the index already recording what the source
 * would make of it writes nothing, so the index state (and every value a
 * reader derived from it: path lists, priors, postings, the idle warm-up) is
 * kept. Whatever the run had to look at again to know that: a blob a partial
 * mirror lacks, a file whose parse fails the same way again, a binary file.
 * Before, each of these made every refresh rewrite the index's marks, so each
 * call of a long-lived process started a new index state and paid for the
 * upkeep again.
 *
 * Generated cases (seeded, the seed in every assertion's message): small trees
 * with random files, binary files, missing blobs (commit mode) or failing
 * parses (work trees with git and without); refreshed twice with nothing changed, then changed
 * and compared with a fresh index of the same source.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs, commitAll, git, gitInit, put, tempDir } from '../../test/cli/harness.js';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { brokenGrammars } from '../../test/helpers/broken-grammars.js';
import { RepositoryIndex } from './repository-index.js';
import { indexGeneration } from './store/index-generation.js';
import type { IndexStore } from './store/index-store.js';

vi.mock('../parse/grammar-loader.js', async (original) => (await import('../../test/helpers/broken-grammars.js')).withBrokenGrammars(original));

afterAll(cleanupTempDirs);
afterEach(() => {
  brokenGrammars.clear();
});

const WORDS = ['cart', 'price', 'stock', 'order', 'coupon', 'ledger', 'refund', 'parcel', 'invoice', 'tariff'];

/** A generated tree: paths to contents (Python, TypeScript, Markdown and binary files). */
function generatedTree(random: () => number): Map<string, string | Buffer> {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const files = new Map<string, string | Buffer>();
  const pythonFiles = 2 + Math.floor(random() * 4);
  for (let i = 0; i < pythonFiles; i++) {
    const functions = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, j) => `def ${pick()}_${i}_${j}(x):\n    return x + ${j}\n`);
    files.set(`pkg/${pick()}_${i}.py`, functions.join('\n'));
  }
  const typescriptFiles = 1 + Math.floor(random() * 2);
  for (let i = 0; i < typescriptFiles; i++) files.set(`web/${pick()}_${i}.ts`, `export function ${pick()}${i}(n: number): number {\n  return n * ${i + 2};\n}\n`);
  if (random() < 0.5) files.set('assets/logo.bin', Buffer.from([0, 1, 2, 0, 255, 0, 7]));
  files.set('README.md', `# ${pick()}\n\nThe ${pick()} and the ${pick()}.\n`);
  return files;
}

/** What the index holds, as a comparable value: every file row's identity and status, and its symbols. */
function contents(store: IndexStore): string {
  return JSON.stringify(store.files().map((f) => [f.path, f.blobId, f.status, store.symbolsOf(f.path).map((s) => s.qualifiedName)]));
}

/** The loose object file of `blob` in the repository at `root` (a fresh repository keeps every object loose). */
function looseObject(root: string, blob: string): string {
  return join(root, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
}

const SEEDS = Array.from({ length: 24 }, (_, i) => 101 + i);
/** How many generated cases met each condition: the last test checks the seeds cover them all. */
const covered = { missingBlobs: 0, failedParses: 0, binary: 0, workTreeChanges: 0, blobArrivals: 0, wholeAgain: 0, plainFolders: 0, plainFailures: 0 };

describe('a refresh that finds nothing to change writes nothing (generated trees)', () => {
  it.each(SEEDS)('seed %i', async (seed) => {
    const random = mulberry32(seed);
    const at = `seed ${seed}`;
    const work = join(tempDir('reponav-unchanged-'), 'repo');
    const tree = generatedTree(random);
    for (const [path, content] of tree) put(work, path, content);
    gitInit(work);
    const commit = commitAll(work, 'one');
    const commitMode = random() < 0.5;
    const indexPath = join(tempDir('reponav-unchanged-index-'), 'index.db');

    // Commit mode: up to two blobs the mirror lacks. Work-tree mode: TypeScript parses may fail.
    const missing: { path: string; object: string; bytes: string | Buffer }[] = [];
    if (commitMode) {
      const paths = [...tree.keys()].filter((p) => p.endsWith('.py'));
      const count = Math.floor(random() * 3);
      for (const path of paths.slice(0, count)) {
        const object = looseObject(work, git(work, 'rev-parse', `${commit}:${path}`));
        expect(existsSync(object), at).toBe(true);
        missing.push({ path, object, bytes: tree.get(path)! });
      }
    }
    if (!commitMode && random() < 0.6) brokenGrammars.add('typescript');
    // A work tree without git (a downloaded archive): only a full listing can tell what changed.
    const plain = !commitMode && random() < 0.5;
    if (plain) {
      rmSync(join(work, '.git'), { recursive: true, force: true });
      covered.plainFolders++;
      if (brokenGrammars.size > 0) covered.plainFailures++;
    }
    // The object files are read-only; the blob comes back below by hashing its bytes again.
    for (const m of missing) rmSync(m.object, { force: true });

    const options = commitMode ? { commit, indexPath } : { indexPath };
    const repository = await RepositoryIndex.open(work, options);
    try {
      const first = await repository.refresh({ workers: 0 });
      expect(first.skipped['missing-blob'] ?? 0, at).toBe(missing.length);
      if (missing.length > 0) covered.missingBlobs++;
      if (first.failed > 0) covered.failedParses++;
      if ((first.skipped.binary ?? 0) > 0) covered.binary++;
      const generation = indexGeneration(repository.store);
      const held = contents(repository.store);
      const relisted = vi.spyOn(repository.source, 'list');
      for (let again = 0; again < 2; again++) {
        const report = await repository.refresh({ workers: 0 });
        // A commit whose blobs a mirror lacks: only those blobs are looked at again, the commit is not listed.
        if (commitMode) expect(relisted, `${at}: refresh ${again + 2} listed the commit again`).not.toHaveBeenCalled();
        expect(indexGeneration(repository.store), `${at}: refresh ${again + 2} started a new index state`).toBe(generation);
        expect(contents(repository.store), at).toBe(held);
        expect(report.skipped['missing-blob'] ?? 0, at).toBe(missing.length);
        expect(report.failed, at).toBe(first.failed);
      }

      relisted.mockRestore();
      // A change: a blob arrives, or a file of the work tree is edited, added or removed.
      if (commitMode && missing.length > 0) {
        const back = missing[0]!;
        const hashed = tempDir('reponav-blob-');
        put(hashed, 'blob', back.bytes);
        git(work, 'hash-object', '-w', join(hashed, 'blob'));
        covered.blobArrivals++;
      } else if (!commitMode) {
        const paths = [...tree.keys()].filter((p) => p.endsWith('.py'));
        const choice = random();
        if (choice < 0.4) put(work, paths[0]!, `${String(tree.get(paths[0]!))}\ndef appended_${seed}(y):\n    return y\n`);
        else if (choice < 0.7) put(work, `pkg/added_${seed}.py`, `def added_${seed}():\n    return ${seed}\n`);
        else rmSync(join(work, paths[paths.length - 1]!));
        if (random() < 0.5) brokenGrammars.clear();
        covered.workTreeChanges++;
      } else {
        return;
      }
      await repository.refresh({ workers: 0 });
      expect(indexGeneration(repository.store), `${at}: a change kept the old index state`).not.toBe(generation);
      const changed = contents(repository.store);
      const fresh = await RepositoryIndex.open(work, { ...options, indexPath: join(tempDir('reponav-unchanged-fresh-'), 'index.db') });
      try {
        await fresh.refresh({ workers: 0 });
        expect(changed, `${at}: the updated index differs from a fresh one`).toBe(contents(fresh.store));
      } finally {
        fresh.close();
      }
      const after = indexGeneration(repository.store);
      const listings = vi.spyOn(repository.source, 'list');
      await repository.refresh({ workers: 0 });
      expect(indexGeneration(repository.store), `${at}: a refresh after the change started a new index state`).toBe(after);
      // A commit whose every blob is now there is whole: the next refresh has nothing to look at.
      if (commitMode && missing.length === 1) {
        expect(listings, `${at}: a whole commit was listed again`).not.toHaveBeenCalled();
        covered.wholeAgain++;
      }
    } finally {
      repository.close();
    }
  });

  it('the seeds above cover every condition', () => {
    for (const [condition, count] of Object.entries(covered)) expect(count, condition).toBeGreaterThan(0);
  });
});
