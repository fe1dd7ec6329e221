/**
 * Which folder is indexed: from a subfolder of a git work tree, the work
 * tree (as git finds it), with one index; a git directory (bare, or `X/.git`)
 * without --commit is refused with a sentence that suggests --commit HEAD.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, commitAll, ensureBuilt, expectOneSentenceError, git, gitInit, put, runCli, tempDir } from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

function repo(): { root: string; cacheDir: string } {
  const root = join(tempDir('reponav-root-'), 'proj');
  put(root, 'src/pkg/config.py', 'class Config:\n    def load(self):\n        return {}\n');
  put(root, 'src/pkg/app.py', 'from .config import Config\n\ndef make_app():\n    return Config()\n');
  put(root, 'README.md', '# proj\n');
  gitInit(root);
  commitAll(root, 'init');
  return { root, cacheDir: tempDir('reponav-root-cache-') };
}

const indexFolders = (cacheDir: string) => readdirSync(cacheDir).filter((name) => name !== 'code-cache');

describe('the work tree root', () => {
  it('symbols and search from a subfolder use the work tree and its one index', async () => {
    const { root, cacheDir } = repo();
    expect((await cli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    expect(indexFolders(cacheDir)).toHaveLength(1);
    const cwd = join(root, 'src/pkg');
    const symbols = await cli(['symbols', 'config.py'], { cacheDir, cwd });
    expect(symbols.code, symbols.stderr).toBe(0);
    expect(symbols.stdout).toContain('Config');
    // The built CLI once: its start-up reads the repository from the arguments (early git status).
    const search = runCli(['search', 'make app config', '-q'], { cacheDir, cwd });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('src/pkg/app.py');
    const status = await cli(['status'], { cacheDir, cwd });
    expect(status.stdout).toContain(`Repository: ${root} (worktree)`);
    expect(indexFolders(cacheDir)).toHaveLength(1);
  });

  it('a folder named explicitly stays its own root', async () => {
    const { root, cacheDir } = repo();
    const result = await cli(['index', join(root, 'src/pkg'), '-q', '--json'], { cacheDir });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { root: string }).root).toBe(join(root, 'src/pkg'));
  });

  it('index on X/.git or a bare repository without --commit is refused, suggesting --commit HEAD', async () => {
    const { root, cacheDir } = repo();
    const dotGit = expectOneSentenceError(await cli(['index', join(root, '.git')], { cacheDir }), 1);
    expect(dotGit).toContain('is a git directory, not a working tree');
    expect(dotGit).toContain('--commit HEAD');
    const bare = join(tempDir('reponav-bare-'), 'proj.git');
    git(root, 'clone', '-q', '--bare', root, bare);
    expect(expectOneSentenceError(await cli(['index', bare], { cacheDir }), 1)).toContain('--commit HEAD');
    expect((await cli(['index', bare, '--commit', 'HEAD', '-q'], { cacheDir })).code).toBe(0);
  });
});
