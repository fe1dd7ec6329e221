/**
 * What a reader derives from the path list alone (the indexed paths, the
 * repository layout) is carried over a write that adds and removes no path,
 * and derived afresh after any other: checked over seeded random sequences of
 * edits, additions, removals and packaging edits against a new connection.
 */
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RepositoryIndex } from '../index/repository-index.js';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { indexedPaths } from './indexed-paths.js';
import { repositoryLayout } from './repository-layout.js';

const fixtures = fixtureRepositories('path-carry');
afterAll(() => fixtures.cleanUp());

const plain = (store: RepositoryIndex['store']) => {
  const layout = repositoryLayout(store);
  return { paths: indexedPaths(store), roots: layout.libraryRoots, stems: [...layout.stemCounts].sort(), byStem: [...layout.pathsByStem].sort() };
};

describe('values derived from the path list', () => {
  it('are carried over edits and derived afresh after additions, removals and packaging edits (seeded random sequences)', async () => {
    for (let seed = 1; seed <= 4; seed++) {
      const random = mulberry32(seed);
      const files: Record<string, string> = { 'pyproject.toml': '[project]\nname = "shop"\n' };
      for (let i = 0; i < 6; i++) files[`shop/m${i}.py`] = `def f${i}():\n    return ${i}\n`;
      files['shop/__init__.py'] = '';
      files['other/__init__.py'] = '';
      files['other/util.py'] = 'def helper():\n    return 1\n';
      const repository = await fixtures.indexed(files);
      const root = join(dirname(repository.store.path), 'repo');
      const present = new Set(Object.keys(files));
      try {
        for (let step = 0; step < 10; step++) {
          const before = indexedPaths(repository.store);
          const beforeLayout = repositoryLayout(repository.store);
          const roll = random();
          const code = [...present].filter((p) => p.endsWith('.py')).sort();
          let kind: 'edit' | 'add' | 'remove' | 'packaging';
          if (roll < 0.45) {
            kind = 'edit';
            appendFileSync(join(root, code[Math.floor(random() * code.length)]!), `# edit ${seed}-${step}\n`);
          } else if (roll < 0.65) {
            kind = 'add';
            const path = `shop/new_${seed}_${step}.py`;
            writeFileSync(join(root, path), `def added_${step}():\n    pass\n`);
            present.add(path);
          } else if (roll < 0.85 && code.length > 3) {
            kind = 'remove';
            const path = code[Math.floor(random() * code.length)]!;
            rmSync(join(root, path));
            present.delete(path);
          } else {
            kind = 'packaging';
            writeFileSync(join(root, 'pyproject.toml'), `[project]\nname = "${random() < 0.5 ? 'shop' : 'other'}"\n# ${step}\n`);
          }
          await repository.refresh();
          const fresh = await RepositoryIndex.open(root, { indexPath: repository.store.path, readonly: true });
          try {
            expect(plain(repository.store), `seed ${seed} step ${step} (${kind})`).toEqual(plain(fresh.store));
          } finally {
            fresh.close();
          }
          const now = indexedPaths(repository.store);
          // An edit or a packaging edit keeps the path list itself; an addition or a removal reads it again.
          if (kind === 'edit' || kind === 'packaging') expect(now, `seed ${seed} step ${step} (${kind})`).toBe(before);
          else expect(now, `seed ${seed} step ${step} (${kind})`).not.toBe(before);
          // Only an edit of a code file keeps the layout (a packaging edit may move the library).
          if (kind === 'edit') expect(repositoryLayout(repository.store), `seed ${seed} step ${step}`).toBe(beforeLayout);
          else expect(repositoryLayout(repository.store), `seed ${seed} step ${step} (${kind})`).not.toBe(beforeLayout);
        }
      } finally {
        repository.close();
      }
    }
  });
});
