import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture } from '../../../test/cli/harness.js';
import { graphInputs, type GraphInputs } from './graph-inputs.js';
import { indexConnection, type IndexStore } from '../store/index-store.js';
import { RepositoryIndex } from '../repository-index.js';

afterAll(cleanupTempDirs);

/** The graph inputs derived from the symbols table itself, one row per symbol: what graph_facts must always agree with. */
function fromSymbols(store: IndexStore): GraphInputs {
  const db = indexConnection(store);
  const paths = db.prepare("SELECT path FROM files WHERE language != 'unknown' ORDER BY path").pluck().all() as string[];
  const at = new Map(paths.map((p, i) => [p, i]));
  const defines: string[][] = paths.map(() => []);
  const calls: Set<string>[] = paths.map(() => new Set());
  const rows = db.prepare('SELECT f.path, s.name, s.qualified_name, s.callees FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY s.id').raw().all() as string[][];
  for (const [path, name, qualified, callees] of rows) {
    const file = at.get(path);
    if (file === undefined) continue;
    if (qualified.split('.').length <= 2) defines[file].push(name);
    for (const callee of JSON.parse(callees) as string[]) calls[file].add(callee);
  }
  const { imports } = graphInputs(store);
  return { paths, imports, defines, calls: calls.map((s) => [...s].sort()) };
}

describe('graphInputs', () => {
  it('reads per-file facts that stay equal to the symbols through additions, edits and removals', async () => {
    const fixture = copyIndexFixture();
    const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
    try {
      await repository.refresh();
      const first = graphInputs(repository.store);
      expect(first.paths.length).toBeGreaterThan(3);
      expect(first.calls.some((c) => c.length > 0)).toBe(true);
      expect(first.defines.some((d) => d.length > 0)).toBe(true);
      expect(first).toEqual(fromSymbols(repository.store));

      writeFileSync(join(fixture.root, 'extra.py'), 'from web import cart\n\nclass Extra:\n    def run(self):\n        return helper() + other()\n\ndef helper():\n    return 1\n');
      const [changed] = first.paths.filter((p) => p.endsWith('.py'));
      writeFileSync(join(fixture.root, changed), 'def replaced():\n    return called_now()\n');
      const removed = first.paths.find((p) => p !== changed && p.endsWith('.py'))!;
      rmSync(join(fixture.root, removed));
      await repository.refresh();

      const after = graphInputs(repository.store);
      expect(after.paths).toContain('extra.py');
      expect(after.paths).not.toContain(removed);
      expect(after.defines[after.paths.indexOf('extra.py')]).toEqual(['Extra', 'run', 'helper']);
      expect(after.calls[after.paths.indexOf(changed)]).toEqual(['called_now']);
      expect(after).toEqual(fromSymbols(repository.store));
      // Removed files leave no facts behind (ON DELETE CASCADE).
      const orphans = indexConnection(repository.store).prepare('SELECT COUNT(*) FROM graph_facts WHERE file_id NOT IN (SELECT id FROM files)').pluck().get();
      expect(orphans).toBe(0);
    } finally {
      await repository.close();
    }
  });
});
