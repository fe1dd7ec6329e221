/**
 * Test support: a private copy of the tools fixture repository with its index
 * in the same temporary folder, so tests never write into the checked-in
 * fixture or the user's cache.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepositorySet } from '../../src/tools/repository-set.js';

/** The checked-in fixture (read-only for tests). */
export const FIXTURE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/tools-repo');

/** A temporary copy of the fixture. */
export interface FixtureCopy {
  /** The temporary folder holding `repo/` and `index/`. */
  dir: string;
  /** The copied repository root. */
  root: string;
  /** An index path inside `dir`. */
  indexPath: string;
  cleanup(): void;
}

/** Copies the fixture into a fresh temporary folder (`name` becomes the repository folder's name). */
export function copyFixture(name = 'tools-repo'): FixtureCopy {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-tools-'));
  const root = join(dir, name);
  cpSync(FIXTURE_ROOT, root, { recursive: true });
  return {
    dir,
    root,
    indexPath: join(dir, 'index', `${name}.db`),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Opens a RepositorySet over a fixture copy (not yet indexed: the first tool call indexes it). */
export async function openFixtureSet(copy: FixtureCopy): Promise<RepositorySet> {
  return RepositorySet.open([{ path: copy.root, indexPath: copy.indexPath }]);
}
