import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, git, gitInit, put, tempDir } from '../../../test/cli/harness.js';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { newIgnore, verdictOf } from './ignore-layers.js';
import { VENDORED_DIRECTORIES } from './source-file.js';
import { WorktreeSource } from './worktree-source.js';

afterAll(cleanupTempDirs);

describe('the rule layers', () => {
  it('test a path against its own lines: a default venv/ does not decide a file inside a venv/ folder brought back by a ! line', () => {
    const layers = [
      { base: '', rules: newIgnore().add('venv/'), file: '', source: 'default' as const },
      { base: '', rules: newIgnore().add('!venv/'), file: '.reponavignore', source: 'reponavignore' as const },
    ];
    expect(verdictOf(layers, 'src/venv', true)).toMatchObject({ excluded: false, source: 'reponavignore', file: '.reponavignore' });
    expect(verdictOf(layers, 'src/venv/x.py', false)).toBeNull();
    expect(verdictOf(layers.slice(0, 1), 'src/venv', true)).toMatchObject({ excluded: true, source: 'default' });
  });

  it('follow ripgrep: .rgignore over .ignore over .gitignore, a deeper file over a shallower one of the same kind', () => {
    const layer = (base: string, text: string, source: 'gitignore' | 'ignore' | 'rgignore') => ({ base, rules: newIgnore().add(text), file: `${base}/.${source}`, source });
    expect(verdictOf([layer('', '*.log', 'gitignore'), layer('', '!*.log', 'ignore')], 'a.log', false)?.excluded).toBe(false);
    expect(verdictOf([layer('', '!*.log', 'ignore'), layer('', '*.log', 'rgignore')], 'a.log', false)?.excluded).toBe(true);
    expect(verdictOf([layer('', '*.log', 'ignore'), layer('sub', '!*.log', 'ignore')], 'sub/a.log', false)?.excluded).toBe(false);
    // A kind of higher precedence decides even from a shallower folder.
    expect(verdictOf([layer('', '*.log', 'rgignore'), layer('sub', '!*.log', 'ignore')], 'sub/a.log', false)?.excluded).toBe(true);
  });
});

// ---------------------------------------------------------------------------
// Generated trees against a reference: git's own answers (ls-files, check-ignore) plus the stated rules.

const FOLDERS = ['src', 'lib', 'venv', 'build', 'dist', 'node_modules', 'vendor', 'target', 'pkg'];
const FILES = ['x.py', 'y.js', 'keep.log', 'a.log', 'z.txt', 'w.tmp'];
const GIT_LINES = ['*.log', '!keep.log', '*.tmp', 'pkg/', 'lib/', 'build/'];
const USER_LINES = ['venv/', '!venv/', '!build/', 'src/', '!src/', '!dist/', '*.txt', '!*.txt', '!keep.log', '*.js', 'lib/', '!pkg/'];
type Kind = 'gitignore' | 'ignore' | 'rgignore' | 'reponavignore';
/** The user kinds, highest precedence first (ripgrep's order with .reponavignore on top). */
const USER_KINDS: Kind[] = ['reponavignore', 'rgignore', 'ignore'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

interface Tree {
  root: string;
  files: string[];
  /** Ignore files: folder ('' for the root) → kind → lines. */
  rules: Map<string, Map<Kind, string[]>>;
}

function buildTree(seed: number): Tree {
  const random = mulberry32(seed);
  const root = tempDir('reponav-rules-');
  gitInit(root);
  const files = new Set<string>();
  for (let i = 0; i < 14; i++) {
    const depth = 1 + Math.floor(random() * 3);
    const parts = Array.from({ length: depth - 1 }, () => pick(random, FOLDERS));
    files.add([...parts, pick(random, FILES)].join('/'));
  }
  const tracked = [...files].filter(() => random() < 0.5);
  for (const path of files) put(root, path, `# ${path}\n`);
  if (tracked.length) {
    git(root, 'add', '-f', '--', ...tracked);
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'tracked');
  }
  // Ignore files written after the commit (untracked), in the root and in one folder that holds files.
  const rules = new Map<string, Map<Kind, string[]>>();
  const folders = ['', ...new Set([...files].filter((f) => f.includes('/')).map((f) => f.slice(0, f.lastIndexOf('/'))))];
  for (const folder of [folders[0], pick(random, folders)]) {
    for (const kind of ['gitignore', ...USER_KINDS] as Kind[]) {
      if (random() < 0.4) continue;
      const pool = kind === 'gitignore' ? GIT_LINES : USER_LINES;
      const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, pool));
      const own = rules.get(folder) ?? new Map<Kind, string[]>();
      own.set(kind, [...(own.get(kind) ?? []), ...lines]);
      rules.set(folder, own);
    }
  }
  for (const [folder, kinds] of rules) {
    for (const [kind, lines] of kinds) {
      const path = folder ? `${folder}/.${kind}` : `.${kind}`;
      put(root, path, lines.join('\n') + '\n');
      files.add(path);
    }
  }
  return { root, files: [...files].sort(), rules };
}

/** Every file on disk below `root` (the .git folder aside), repository-relative. */
function filesOnDisk(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.name === '.git') return [];
    return entry.isDirectory() ? filesOnDisk(root, path) : [path];
  });
}

/**
 * Git's verdict on each file's own lines, from `git check-ignore -v --no-index`
 * in a scratch repository holding the tree's .gitignore files without their
 * folder lines: git answers for a path inside an ignored folder with the
 * folder's line, and the walk asks only about paths whose folder it entered.
 */
function gitFileVerdicts(tree: Tree, files: string[]): Map<string, boolean | null> {
  const scratch = tempDir('reponav-rules-git-');
  gitInit(scratch);
  for (const [folder, kinds] of tree.rules) {
    const lines = (kinds.get('gitignore') ?? []).filter((line) => !line.endsWith('/'));
    if (lines.length) put(scratch, folder ? `${folder}/.gitignore` : '.gitignore', lines.join('\n') + '\n');
  }
  const result = spawnSync('git', ['-c', 'core.excludesFile=/dev/null', 'check-ignore', '-v', '-n', '--no-index', '--stdin'], { cwd: scratch, input: files.join('\n') + '\n', encoding: 'utf8' });
  const verdicts = new Map<string, boolean | null>();
  for (const line of result.stdout.split('\n')) {
    if (!line) continue;
    const [where, path] = line.split('\t');
    const pattern = where.split(':').slice(2).join(':');
    verdicts.set(path, pattern ? !pattern.startsWith('!') : null);
  }
  expect(verdicts.size, 'git check-ignore answered for every file').toBe(files.length);
  return verdicts;
}

/** The stated rules for a kind: a line matches a folder by `name/` and a file by its name or `*.ext`; the deepest file's last matching line decides. */
function ownVerdict(tree: Tree, kind: Kind, path: string, dir: boolean): boolean | null {
  const name = path.split('/').pop()!;
  // Deepest file first.
  const folders = [...tree.rules.keys()].filter((f) => f === '' || path.startsWith(f + '/')).sort((a, b) => b.length - a.length);
  for (const folder of folders) {
    const lines = tree.rules.get(folder)?.get(kind) ?? [];
    for (let i = lines.length - 1; i >= 0; i--) {
      const bare = lines[i].replace(/^!/, '');
      const matches = dir ? bare === `${name}/` : bare === name || (bare.startsWith('*.') && name.endsWith(bare.slice(1)));
      if (matches) return !lines[i].startsWith('!');
    }
  }
  return null;
}

function expectedListing(tree: Tree): string[] {
  const trackedFiles = new Set(git(tree.root, 'ls-files').split('\n').filter(Boolean));
  const trackedFolders = new Set([...trackedFiles].flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  const all = filesOnDisk(tree.root);
  const gitFiles = gitFileVerdicts(tree, all);
  /** The first kind with a verdict, highest precedence first: [excluded, spares tracked]. */
  const verdict = (path: string, dir: boolean): [boolean, boolean] | null => {
    for (const kind of USER_KINDS) {
      const v = ownVerdict(tree, kind, path, dir);
      if (v !== null) return [v, false];
    }
    const g = dir ? ownVerdict(tree, 'gitignore', path, true) : (gitFiles.get(path) ?? null);
    if (g !== null) return [g, true];
    if (dir && VENDORED_DIRECTORIES.has(path.split('/').pop()!)) return [true, true];
    return null;
  };
  return all
    .filter((file) => {
      const parts = file.split('/');
      let outside = false;
      for (let i = 1; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        const v = verdict(dir, true);
        if (v?.[0]) {
          if (!v[1] || !trackedFolders.has(dir)) return false;
          outside = true;
        } else if (outside && !trackedFolders.has(dir)) return false;
      }
      const v = verdict(file, false);
      if (v?.[0] && !v[1]) return false;
      if (trackedFiles.has(file)) return true;
      return !outside && !v?.[0];
    })
    .sort();
}

describe('generated trees: the indexed set is what git and the stated rules say', () => {
  it('matches the reference on seeded random trees (tracked and untracked files under default folders, ignore files with ! lines)', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const tree = buildTree(seed);
      const listed = (await (await WorktreeSource.open(tree.root)).list()).files.map((f) => f.path);
      const rules = [...tree.rules].map(([folder, kinds]) => [...kinds].map(([kind, lines]) => `${folder || '.'}/.${kind}: ${lines.join(' ')}`).join('; ')).join('; ');
      expect(listed, `seed ${seed} (${rules}; tracked: ${git(tree.root, 'ls-files').split('\n').join(' ')})`).toEqual(expectedListing(tree));
    }
  });
});
