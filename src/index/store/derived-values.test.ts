import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RepositoryIndex } from '../repository-index.js';
import { derivedKey, snapshotOf } from './derived-values.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** An indexed folder holding `files`, and the folder (to write more files into). */
async function indexed(files: Record<string, string>): Promise<{ repository: RepositoryIndex; root: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-derived-'));
  dirs.push(dir);
  const root = join(dir, 'repo');
  mkdirSync(root);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  const repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index.db') });
  await repository.refresh();
  return { repository, root };
}

describe('snapshotOf(store).derive', () => {
  it('computes a value once per index state, and again after a write', async () => {
    const { repository, root } = await indexed({ 'a.py': 'def a():\n    return 1\n' });
    const key = derivedKey<string[]>('paths');
    let computed = 0;
    const paths = () => snapshotOf(repository.store).derive(key, () => (computed++, repository.store.filePaths()));
    const first = paths();
    expect(paths()).toBe(first);
    expect(computed).toBe(1);
    writeFileSync(join(root, 'b.py'), 'def b():\n    return 2\n');
    await repository.refresh();
    expect(paths()).toEqual(['a.py', 'b.py']);
    expect(computed).toBe(2);
    repository.close();
  });

  it('keeps values of different keys apart, even under one name', async () => {
    const { repository } = await indexed({ 'a.py': 'x = 1\n' });
    const one = derivedKey<number>('n');
    const two = derivedKey<number>('n');
    expect(snapshotOf(repository.store).derive(one, () => 1)).toBe(1);
    expect(snapshotOf(repository.store).derive(two, () => 2)).toBe(2);
    expect(snapshotOf(repository.store).derive(one, () => 3)).toBe(1);
    repository.close();
  });
});

describe('carried keys', () => {
  it('hand the latest earlier value to the next state, and only carried keys do', async () => {
    const { repository, root } = await indexed({ 'a.py': 'x = 1\n' });
    const carried = derivedKey<string>('carried', { carried: true });
    const plain = derivedKey<string>('plain');
    const seen: { carried: (string | undefined)[]; plain: (string | undefined)[] } = { carried: [], plain: [] };
    const derive = (tag: string) => {
      const snapshot = snapshotOf(repository.store);
      snapshot.derive(carried, (earlier) => (seen.carried.push(earlier), tag));
      snapshot.derive(plain, (earlier) => (seen.plain.push(earlier), tag));
    };
    derive('one');
    writeFileSync(join(root, 'b.py'), 'y = 2\n');
    await repository.refresh();
    // A state that never asks for the value keeps the earlier one for the next.
    writeFileSync(join(root, 'c.py'), 'z = 3\n');
    await repository.refresh();
    derive('three');
    expect(seen.carried).toEqual([undefined, 'one']);
    expect(seen.plain).toEqual([undefined, undefined]);
    repository.close();
  });
});
