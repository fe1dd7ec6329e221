import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, gitInit } from '../../../test/cli/harness.js';
import { RepositoryIndex } from '../repository-index.js';

afterAll(cleanupTempDirs);

/** A same-length edit with the modification time put back (`touch -r`): what a size + mtime check cannot see. */
function editKeepingMtime(path: string): void {
  const before = statSync(path);
  const reference = `${path}.reference`;
  execFileSync('touch', ['-r', path, reference]);
  const text = readFileSync(path, 'utf8');
  const edited = text.replace(/[a-z]/, (c) => (c === 'z' ? 'y' : String.fromCharCode(c.charCodeAt(0) + 1)));
  expect(edited.length).toBe(text.length);
  writeFileSync(path, edited);
  execFileSync('touch', ['-r', reference, path]);
  rmSync(reference);
  expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
}

describe('freshness sees an edit that kept size and modification time', () => {
  for (const git of [false, true]) {
    it(`${git ? 'in a git work tree' : 'without git'}: status says stale and the refresh stores the new text`, async () => {
      const { root, indexPath } = copyIndexFixture();
      if (git) {
        gitInit(root);
        commitAll(root, 'init');
      }
      const repository = await RepositoryIndex.open(root, { indexPath });
      try {
        await repository.refresh();
        const path = 'inventory/pricing.py';
        editKeepingMtime(join(root, path));
        expect((await repository.status()).stale.changed).toEqual([path]);
        await repository.refresh();
        expect(repository.store.fileText(path)).toBe(readFileSync(join(root, path), 'utf8'));
      } finally {
        repository.close();
      }
    });
  }
});
