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
import { callTool, createToolRegistry } from '../../src/tools/tool-registry.js';
import type { ToolCallResult, ToolContext } from '../../src/tools/tool-types.js';

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

/** A fixture copy, its repository set and a call shortcut through the built-in registry. */
export interface ToolHarness {
  copy: FixtureCopy;
  repositories: RepositorySet;
  call(name: string, args: unknown, context?: Partial<ToolContext>): Promise<ToolCallResult>;
  close(): Promise<void>;
}

/** Opens a harness over a fresh fixture copy and indexes it once. */
export async function openToolHarness(): Promise<ToolHarness> {
  const copy = copyFixture();
  const repositories = await openFixtureSet(copy);
  await repositories.select().refresh();
  const registry = createToolRegistry();
  return {
    copy,
    repositories,
    call: (name, args, context = {}) => callTool(registry, name, args, { repositories, ...context }),
    async close() {
      await repositories.close();
      copy.cleanup();
    },
  };
}
