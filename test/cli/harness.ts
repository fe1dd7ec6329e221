/**
 * Test support for the index and CLI tests: temporary folders (indexes never
 * go to the user's cache), a private copy of the `index-repo` fixture, small
 * git helpers, and a runner for the built CLI (`dist/cli/main.js`: the bundle
 * users run), which is rebuilt once when the sources are newer than it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tracked } from '../helpers/child-processes.js';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const INDEX_FIXTURE = join(PROJECT_ROOT, 'test/fixtures/index-repo');
export const CLI = join(PROJECT_ROOT, 'dist/cli/main.js');

/** Every file of the checked-in fixture, repository-relative (what a plain index of a copy lists). */
export const FIXTURE_FILES = [
  '.gitignore',
  'README.md',
  'inventory/.gitignore',
  'inventory/__init__.py',
  'inventory/pricing.py',
  'inventory/stock.py',
  'tools/report.py',
  'web/cart.ts',
  'web/checkout.ts',
];

// Safety net: anything that falls back to the default index location lands in a temp folder, never the user's cache.
process.env.REPONAV_CACHE_DIR ??= join(tmpdir(), `reponav-test-cache-${process.pid}`);

const made: string[] = [];

/** A fresh folder under the OS temp dir (outside any git work tree). */
export function tempDir(prefix = 'reponav-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made (call in afterAll). */
export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Copies the fixture into `<tempDir>/<name>` and returns its root. */
export function copyIndexFixture(name = 'shop'): { dir: string; root: string; indexPath: string; cacheDir: string } {
  const dir = tempDir('reponav-index-');
  const root = join(dir, name);
  cpSync(INDEX_FIXTURE, root, { recursive: true });
  return { dir, root, indexPath: join(dir, 'index', 'index.db'), cacheDir: join(dir, 'cache') };
}

/** Writes `text` (or bytes) at `root/path`, creating folders. */
export function put(root: string, path: string, content: string | Buffer): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** Runs git in `cwd`; throws with stderr on failure; returns trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout.trim();
}

/** `git init` with a fixed branch name. */
export function gitInit(cwd: string): void {
  git(cwd, 'init', '-q', '-b', 'main');
}

/** Stages everything and commits; returns the new commit id. */
export function commitAll(cwd: string, message: string): string {
  git(cwd, 'add', '-A');
  git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', message);
  return git(cwd, 'rev-parse', 'HEAD');
}

// ---------------------------------------------------------------------------
// The built CLI

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === '__fixtures__' || entry.name === '__golden__') continue;
      newest = Math.max(newest, newestMtime(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/** True when `dist/cli/main.js` is esbuild's bundle (scripts/bundle-cli.mjs), not tsc's one file per module. */
function isBundle(): boolean {
  const head = readFileSync(CLI, 'utf8').slice(0, 400);
  return head.includes('__reponavRequire');
}

/** The steps of `npm run build` that make the CLI users run (the web view's build and the clean are left out). */
const BUILD_STEPS: string[][] = [
  [join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  [join(PROJECT_ROOT, 'scripts/bundle-cli.mjs')],
  [join(PROJECT_ROOT, 'scripts/copy-grammars.mjs')],
];

/**
 * Makes sure `dist/` holds the shipped CLI (the bundle `npm run build` makes,
 * which `npm test` builds once before the run) at least as new as `src/`.
 * Only when it does not (a single file run after an edit) does it build it,
 * with `npm run build`'s own steps, once, under a lock of this checkout shared
 * by parallel test files. A failed type check still counts when tsc emitted.
 */
export async function ensureBuilt(): Promise<void> {
  // One lock per checkout: test runs of other checkouts build their own dist/.
  const lock = join(tmpdir(), `reponav-test-build-${createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 12)}.lock`);
  const fresh = () =>
    existsSync(CLI) &&
    existsSync(join(PROJECT_ROOT, 'dist/cli/parse-worker.js')) &&
    existsSync(join(PROJECT_ROOT, 'dist/index/write/parse-worker.js')) &&
    statSync(CLI).mtimeMs >= newestMtime(join(PROJECT_ROOT, 'src')) &&
    isBundle();
  const started = Date.now();
  while (!fresh()) {
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; take over a lock older than three minutes.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
      if (Date.now() - started > 240_000) throw new Error('timed out waiting for another test file to build dist/');
      continue;
    }
    try {
      if (fresh()) break;
      for (const [script, ...args] of BUILD_STEPS) {
        const result = spawnSync(process.execPath, [script!, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8' });
        const tsc = script!.endsWith('tsc');
        if (result.status !== 0 && !(tsc && existsSync(CLI))) throw new Error(`build step ${script} failed:\n${result.stdout}${result.stderr}`);
        if (result.status !== 0) console.warn(`tsc reported errors (dist/ was still emitted):\n${result.stdout.slice(0, 2000)}`);
      }
      break;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI synchronously with `REPONAV_CACHE_DIR` set (never the user's cache). */
export function runCli(args: string[], options: { cacheDir: string; cwd?: string; input?: string; env?: NodeJS.ProcessEnv }): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? PROJECT_ROOT,
    input: options.input,
    encoding: 'utf8',
    env: cliEnv(options.cacheDir, options.env),
    timeout: 180_000,
    maxBuffer: 64 << 20,
  });
  return { code: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Starts the built CLI asynchronously (for kill tests). */
export function spawnCli(args: string[], options: { cacheDir: string; cwd?: string }): ChildProcess {
  // Killed when the test file ends if the test did not stop it (a failed assertion, a timeout).
  return tracked(
    spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? PROJECT_ROOT,
      env: cliEnv(options.cacheDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

function cliEnv(cacheDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, REPONAV_CACHE_DIR: cacheDir, XDG_CACHE_HOME: join(cacheDir, 'xdg'), ...extra };
  // Vitest's own variables must not leak into the CLI (it would think it runs under test).
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS') delete env[key];
  env.FORCE_COLOR = '0';
  return env;
}

/** Asserts the shape of a CLI failure: exit code, one `error: …` line on stderr, no stack trace. */
export function expectOneSentenceError(result: CliResult, code: number): string {
  const problems: string[] = [];
  if (result.code !== code) problems.push(`exit code ${result.code} (expected ${code})`);
  const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
  if (lines.length !== 1) problems.push(`${lines.length} stderr lines (expected 1)`);
  if (!/^error: \S/.test(lines[0] ?? '')) problems.push('stderr does not start with "error: "');
  if (/\n\s+at /.test(result.stderr)) problems.push('stderr has a stack trace');
  if (problems.length) throw new Error(`${problems.join('; ')}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  return lines[0];
}
