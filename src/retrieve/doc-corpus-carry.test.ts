import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RepositoryIndex } from '../index/repository-index.js';
import { indexConnection } from '../index/store/index-store.js';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { searchRepository } from './search-repository.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const WORDS = ['session', 'cookie', 'client', 'proxy', 'request', 'retry', 'timeout', 'token', 'cache', 'header'];
const QUERY = 'how to configure the session cookie client proxy request retry timeout token cache header';

function write(root: string, path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

async function docsOf(repository: RepositoryIndex): Promise<unknown> {
  return (await searchRepository(repository.store, QUERY)).docs;
}

describe('the documentation corpus over index changes', () => {
  it('is taken over by the next state when only code changed, rebuilt when prose changed, and always answers as a fresh index does', async () => {
    const seed = 4711;
    const next = mulberry32(seed);
    const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
    const dir = mkdtempSync(join(tmpdir(), 'reponav-doc-carry-'));
    dirs.push(dir);
    const root = join(dir, 'repo');
    write(root, 'app/main.py', 'def main():\n    return 1\n');
    write(root, 'docs/guide.md', '# Guide\n\nThe session cookie.\n');
    const repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index.db') });
    await repository.refresh();
    const indexFile = indexConnection(repository.store).name;
    // The documentation corpus's cache file beside the index, whatever its format version.
    const cacheFiles = () => readdirSync(dir).filter((name) => name.startsWith(`${basename(indexFile)}.docs-v`) && name.endsWith('.cache')).map((name) => join(dir, name));
    await docsOf(repository);
    let rebuilt = 0;
    let carried = 0;
    for (let step = 0; step < 16; step++) {
      const prose = next() < 0.4;
      const n = Math.floor(next() * 3);
      const text = Array.from({ length: 2 + Math.floor(next() * 6) }, pick).join(' ');
      if (prose) write(root, `docs/page${n}.md`, `# ${pick()} ${pick()}\n\n${text} (${step})\n`);
      else write(root, `app/mod${n}.py`, `def ${pick()}_${step}():\n    return "${text}"\n`);
      await repository.refresh();
      for (const file of cacheFiles()) rmSync(file, { force: true });
      const docs = await docsOf(repository);
      // Built means written back beside the index; taken over means not.
      const written = cacheFiles().length > 0;
      if (written) rebuilt++;
      else carried++;
      expect(written, `seed ${seed}, step ${step}: ${prose ? 'a prose edit rebuilds' : 'a code edit carries'} the corpus`).toBe(prose);
      const fresh = await RepositoryIndex.open(root, { indexPath: join(dir, `fresh-${step}.db`) });
      await fresh.refresh();
      try {
        expect(docs, `seed ${seed}, step ${step}`).toEqual(await docsOf(fresh));
      } finally {
        fresh.close();
      }
    }
    expect(rebuilt).toBeGreaterThan(0);
    expect(carried).toBeGreaterThan(0);
    repository.close();
  });
});
