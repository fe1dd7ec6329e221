import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, git, gitInit, put, tempDir } from '../../test/cli/harness.js';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { languageForPath } from '../parse/index.js';
import { WorktreeSource } from '../index/index.js';
import { provisionalSearch, type ProvisionalRules } from './provisional-search.js';

afterAll(cleanupTempDirs);

const rgInstalled = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;

/** A PATH with git and without ripgrep: the in-process scan, with git still telling which files it tracks. */
const gitOnlyPath = (() => {
  const dir = tempDir('git-only-path-');
  const gitPath = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  symlinkSync(gitPath, join(dir, 'git'));
  return dir;
})();

// The provisional scan answers before any index exists; what it ranks must be what the index would hold:
// the same rule layers (.reponavignore > .rgignore > .ignore > .gitignore > info/exclude > defaults),
// --include/--exclude, and a tracked file never left out by git's rules or a default.

const FOLDERS = ['src', 'lib', 'venv', 'build', 'node_modules', 'vendor', 'pkg', '.hidden'];
const FILES = ['x.py', 'y.js', 'gen.py', 'keep.py', 'notes.md'];
const LINES = ['*.js', '!*.js', 'gen.py', '!gen.py', 'pkg/', '!pkg/', 'venv/', '!venv/', '!build/', 'src/', '!vendor/', 'keep.py', '!keep.py', 'lib/'];
const KINDS = ['.gitignore', '.ignore', '.rgignore', '.reponavignore'];
const WORD = 'frobnicate';

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

interface GeneratedTree {
  root: string;
  rules: ProvisionalRules;
  /** What was written, for the failure message. */
  description: string;
}

function generatedTree(seed: number): GeneratedTree {
  const random = mulberry32(seed);
  const root = tempDir('provisional-rules-');
  gitInit(root);
  const files = new Set<string>();
  for (let i = 0; i < 16; i++) {
    const parts = Array.from({ length: Math.floor(random() * 3) }, () => pick(random, FOLDERS));
    files.add([...parts, pick(random, FILES)].join('/'));
  }
  for (const path of files) put(root, path, `# ${WORD} in ${path}\ndef ${WORD}_here(): return '${WORD}'\n`);
  const tracked = [...files].filter(() => random() < 0.4);
  if (tracked.length) {
    git(root, 'add', '-f', '--', ...tracked);
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'tracked');
  }
  const written: string[] = [];
  const folders = ['', ...new Set([...files].filter((f) => f.includes('/')).map((f) => f.slice(0, f.lastIndexOf('/'))))];
  for (const folder of new Set([folders[0], pick(random, folders)])) {
    for (const kind of KINDS) {
      if (random() < 0.45) continue;
      const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, LINES));
      put(root, folder ? `${folder}/${kind}` : kind, lines.join('\n') + '\n');
      written.push(`${folder || '.'}/${kind}: ${lines.join(' ')}`);
    }
  }
  if (random() < 0.4) {
    const lines = [pick(random, LINES), pick(random, LINES)];
    put(root, '.git/info/exclude', lines.join('\n') + '\n');
    written.push(`info/exclude: ${lines.join(' ')}`);
  }
  const rules: ProvisionalRules = {};
  if (random() < 0.3) rules.exclude = [pick(random, ['*.js', 'lib/', 'gen.py', 'src/'])];
  if (random() < 0.3) rules.include = [pick(random, ['venv/', 'build/', 'node_modules/', 'gen.py'])];
  const description = `${written.join('; ')}; tracked: ${tracked.join(' ')}; options: ${JSON.stringify(rules)}`;
  return { root, rules, description };
}

/** The source files the index lists for the tree, by its rules. */
async function indexedFiles(tree: GeneratedTree): Promise<string[]> {
  const source = await WorktreeSource.open(tree.root, { ...tree.rules });
  return (await source.list()).files.map((f) => f.path).filter((path) => languageForPath(path) !== null);
}

async function scannedFiles(tree: GeneratedTree, withRg: boolean): Promise<{ paths: string[]; scanner: string }> {
  const path = process.env.PATH;
  if (!withRg) process.env.PATH = gitOnlyPath;
  try {
    const result = await provisionalSearch(tree.root, `where is ${WORD} defined`, { limit: 1000, rules: tree.rules });
    return { paths: result.files.map((f) => f.path).sort(), scanner: result.scanner };
  } finally {
    process.env.PATH = path;
  }
}

describe('the provisional scan holds what the index would hold', () => {
  it('on seeded random trees with ignore files of every layer, info/exclude, tracked files and --include/--exclude, rg and in-process alike', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const tree = generatedTree(seed);
      const expected = (await indexedFiles(tree)).sort();
      for (const withRg of rgInstalled ? [true, false] : [false]) {
        const scanned = await scannedFiles(tree, withRg);
        expect(scanned.scanner, `seed ${seed}`).toBe(withRg ? 'rg' : 'node');
        expect(scanned.paths, `seed ${seed} (${scanned.scanner}): ${tree.description}`).toEqual(expected);
      }
    }
  });

  it('leaves out what .reponavignore excludes and keeps a tracked file under a default folder (a fixed example)', async () => {
    const root = tempDir('provisional-rules-');
    gitInit(root);
    put(root, 'app/core.py', `def ${WORD}(): pass\n`);
    put(root, 'app/generated.py', `def ${WORD}_generated(): pass\n`);
    put(root, 'third/venv/__init__.py', `def ${WORD}_stub(): ...\n`);
    put(root, 'venv/lib/site.py', `def ${WORD}_installed(): pass\n`);
    put(root, '.reponavignore', 'generated.py\n');
    git(root, 'add', '-f', 'third/venv/__init__.py');
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'tracked');
    for (const withRg of rgInstalled ? [true, false] : [false]) {
      const scanned = await scannedFiles({ root, rules: {}, description: '' }, withRg);
      expect(scanned.paths, scanned.scanner).toEqual(['app/core.py', 'third/venv/__init__.py']);
    }
  });

  it('scans only the files it is given (the index source listing) when the caller passes them', async () => {
    const root = tempDir('provisional-rules-');
    put(root, 'a.py', `${WORD}\n`);
    put(root, 'b.py', `${WORD}\n`);
    for (const withRg of rgInstalled ? [true, false] : [false]) {
      const path = process.env.PATH;
      if (!withRg) process.env.PATH = gitOnlyPath;
      try {
        const result = await provisionalSearch(root, WORD, { files: ['b.py'] });
        expect(result.files.map((f) => f.path)).toEqual(['b.py']);
      } finally {
        process.env.PATH = path;
      }
    }
  });

  it('reads many files given to ripgrep in several runs (the command line has a limit)', async () => {
    const root = tempDir('provisional-rules-');
    const files: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const path = `${'deep/'.repeat(20)}folder_${i}/module_with_a_rather_long_name_${i}.py`;
      files.push(path);
      if (i % 100 === 0) put(root, path, `${WORD}\n`);
    }
    const result = await provisionalSearch(join(root), WORD, { files, limit: 100 });
    expect(result.files.map((f) => f.path).sort()).toEqual(files.filter((_, i) => i % 100 === 0).sort());
  });
});
