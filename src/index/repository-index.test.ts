import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, tempDir } from '../../test/cli/harness.js';
import { defaultIndexPath } from './store/cache-location.js';
import { RepositoryIndex } from './repository-index.js';

afterAll(cleanupTempDirs);

let repository: RepositoryIndex;

function catchError(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return null;
}
let root: string;

beforeAll(async () => {
  const fixture = copyIndexFixture();
  root = fixture.root;
  const outside = tempDir('reponav-outside-');
  writeFileSync(join(outside, 'secret.py'), 'SECRET = 1\n');
  symlinkSync(join(outside, 'secret.py'), join(root, 'web', 'secret.py'));
  repository = await RepositoryIndex.open(root, { indexPath: fixture.indexPath });
  await repository.refresh();
  return () => repository.close();
});

describe('RepositoryIndex.resolveFile', () => {
  it('accepts repository-relative, ./-prefixed, backslashed and absolute-inside paths', () => {
    expect(repository.resolveFile('web/cart.ts').path).toBe('web/cart.ts');
    expect(repository.resolveFile('./web/cart.ts').path).toBe('web/cart.ts');
    expect(repository.resolveFile('web\\cart.ts').path).toBe('web/cart.ts');
    expect(repository.resolveFile(join(root, 'web/cart.ts')).path).toBe('web/cart.ts');
    expect(repository.resolveFile('web/../inventory/stock.py').path).toBe('inventory/stock.py');
  });

  it('refuses paths outside the root with PATH_OUTSIDE_ROOT and one sentence', () => {
    for (const bad of ['../outside.py', 'web/../../x.py', '/etc/passwd', join(root, '..', 'x.py')]) {
      expect(() => repository.resolveFile(bad), bad).toThrow(expect.objectContaining({ code: 'PATH_OUTSIDE_ROOT' }));
    }
    try {
      repository.resolveFile('/etc/passwd');
    } catch (error) {
      expect((error as Error).message).toMatch(/^Path '\/etc\/passwd' is outside the repository root .+\.$/);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('refuses a symlink that leads outside the root, and NUL bytes / empty paths as bad input', () => {
    expect(() => repository.resolveFile('web/secret.py')).toThrow(expect.objectContaining({ code: 'PATH_OUTSIDE_ROOT' }));
    expect(() => repository.resolveFile('web/cart.ts\0.py')).toThrow(expect.objectContaining({ code: 'BAD_INPUT' }));
    expect(() => repository.resolveFile('')).toThrow(expect.objectContaining({ code: 'BAD_INPUT' }));
  });

  it('names the closest indexed paths for a missing file', () => {
    const caught = catchError(() => repository.resolveFile('inventory/stocks.py')) as {
      code?: string;
      message: string;
      details?: { suggestions?: string[] };
    } | null;
    expect(caught?.code).toBe('FILE_NOT_FOUND');
    expect(caught?.details?.suggestions?.[0]).toBe('inventory/stock.py');
    expect(caught?.message).toMatch(/Closest indexed paths: inventory\/stock\.py/);
    // Same basename in another folder comes first.
    expect(() => repository.resolveFile('lib/cart.ts')).toThrow(/Closest indexed paths: web\/cart\.ts/);
  });

  it('reads the indexed text of a file', () => {
    const { path, text } = repository.readText('inventory/stock.py');
    expect(path).toBe('inventory/stock.py');
    expect(text).toContain('class StockLedger');
  });
});

describe('defaultIndexPath', () => {
  it('lives under REPONAV_CACHE_DIR, keyed by path and mode', () => {
    const env = { REPONAV_CACHE_DIR: '/tmp/cache-x' };
    const a = defaultIndexPath('/src/shop', 'worktree', env);
    expect(a).toMatch(/^\/tmp\/cache-x\/shop-[0-9a-f]{12}\/worktree\.db$/);
    expect(defaultIndexPath('/src/shop', 'commit', env)).toMatch(/commit\.db$/);
    expect(defaultIndexPath('/other/shop', 'worktree', env)).not.toBe(a);
    expect(defaultIndexPath('/m/yt-dlp/repo', 'commit', env)).toMatch(/\/yt-dlp-[0-9a-f]{12}\/commit\.db$/);
  });
});

describe('files skipped on reading', () => {
  it('a binary file stays skipped, not stale, until it changes; .git is not counted as skipped content', async () => {
    const fixture = copyIndexFixture();
    // No known binary extension: only reading the bytes shows it is binary.
    writeFileSync(join(fixture.root, 'inventory', 'snapshot.dat1'), Buffer.from([1, 0, 2, 0, 3]));
    mkdirSync(join(fixture.root, '.git'));
    writeFileSync(join(fixture.root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const repo = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
    try {
      const first = await repo.refresh();
      expect(first.skipped.binary).toBe(1);
      const again = await repo.refresh();
      expect(again.skipped.binary).toBe(1);
      expect(again.parsed).toBe(0);
      const status = await repo.status();
      expect(status.stale).toEqual({ changed: [], added: [], deleted: [] });
      expect(status.skipped).not.toHaveProperty('vendored');

      writeFileSync(join(fixture.root, 'inventory', 'snapshot.dat1'), 'now it is text\n');
      expect((await repo.status()).stale.added).toEqual(['inventory/snapshot.dat1']);
      const changed = await repo.refresh();
      expect(changed.skipped.binary).toBeUndefined();
      expect(repo.store.file('inventory/snapshot.dat1')).not.toBeNull();
    } finally {
      repo.close();
    }
  });
});
