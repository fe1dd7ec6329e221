/**
 * The published package, as a user gets it: `npm pack` of the built project,
 * installed into an empty folder from the tarball, then the README's first
 * command (`reponav search` on the bundled sample) and its library example run
 * against that install. Needs the npm registry (or a warm npm cache) for the
 * dependencies.
 *
 * Speed: the install runs with `--ignore-scripts`, better-sqlite3 is held (by
 * an `overrides` entry of the empty app) at this project's locked version, and
 * its native binding is copied from this project's own `node_modules` (same
 * version, same Node), because compiling better-sqlite3 from source takes
 * minutes on 2 cores when its prebuilt binary cannot be downloaded. Every other
 * dependency resolves as a user's install would, newest within the ranges.
 * `REPONAV_PACK_FULL_INSTALL=1` runs the install scripts and lets
 * better-sqlite3 resolve freely too.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBlock, PROJECT_ROOT, readDoc } from './readme.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'reponav-pack-'));
const app = join(work, 'app');
const installed = join(app, 'node_modules', 'reponav');
const env = { ...process.env, REPONAV_CACHE_DIR: join(work, 'cache'), npm_config_update_notifier: 'false' };
let packed: { filename: string; files: Array<{ path: string; size: number }>; size: number; unpackedSize: number };

function run(command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 240_000 });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

function mustRun(command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  const result = run(command, args, cwd, extraEnv);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stderr}\n${result.stdout}`);
  return result;
}

beforeAll(() => {
  if (!existsSync(join(PROJECT_ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  // --ignore-scripts: dist/ is already built (npm test builds first); `prepack` would build it again.
  const pack = mustRun(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], PROJECT_ROOT);
  packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')))[0];
  mustRun('mkdir', ['-p', app], work);
  const full = process.env.REPONAV_PACK_FULL_INSTALL === '1';
  const ours: string = JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')).version;
  const overrides = full ? {} : { overrides: { 'better-sqlite3': ours } };
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty-app', private: true, type: 'module', ...overrides }));
  mustRun(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', ...(full ? [] : ['--ignore-scripts']), join(work, packed.filename)], app);
  if (!full) {
    const theirs = JSON.parse(readFileSync(join(app, 'node_modules/better-sqlite3/package.json'), 'utf8')).version;
    if (ours !== theirs) throw new Error(`the install resolved better-sqlite3 ${theirs} but this project has ${ours}; run with REPONAV_PACK_FULL_INSTALL=1`);
    cpSync(join(PROJECT_ROOT, 'node_modules/better-sqlite3/build'), join(app, 'node_modules/better-sqlite3/build'), { recursive: true });
  }
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it('ships the build, the sample, the licence and docs, without source maps or screenshots', () => {
    const paths = packed.files.map((f) => f.path);
    for (const needed of ['LICENSE', 'README.md', 'package.json', 'dist/cli/main.js', 'dist/reponav.js', 'dist/reponav.d.ts', 'dist/web-ui/index.html', 'sample/bookshop/billing/invoice.py', 'models/ranker.json']) {
      expect(paths).toContain(needed);
    }
    expect(paths.some((p) => p.startsWith('queries/'))).toBe(true);
    for (const grammar of ['c', 'kotlin', 'swift', 'scala']) expect(paths).toContain(`dist/grammars/tree-sitter-${grammar}.wasm`);
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(paths.filter((p) => p.includes('screenshots/') || p.endsWith('.png'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/') || p.endsWith('.test.js'))).toEqual([]);
  });

  it('installs without the optional peers (openai, gpt-tokenizer, sqlite-vec, types), and asks for no install-time script of its own', () => {
    expect(existsSync(join(installed, 'dist/cli/main.js'))).toBe(true);
    for (const optional of ['openai', 'gpt-tokenizer', 'sqlite-vec', '@types/better-sqlite3']) expect(existsSync(join(app, 'node_modules', optional)), optional).toBe(false);
    // npm lists (and, for git and folder installs, runs) these on install; the build runs at pack time instead.
    const scripts = Object.keys((JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    expect(scripts.filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([]);
  });

  it('parses the languages whose grammars it ships itself, without tree-sitter-wasms installed', () => {
    expect(existsSync(join(app, 'node_modules/tree-sitter-wasms'))).toBe(false);
    const repo = join(work, 'kotlin-repo');
    mustRun('mkdir', ['-p', repo], work);
    writeFileSync(join(repo, 'Cart.kt'), 'class Cart {\n    fun total(): Int = 0\n}\n');
    writeFileSync(join(repo, 'cart.c'), 'int cart_total(void) { return 0; }\n');
    const kotlin = mustRun(join(app, 'node_modules/.bin/reponav'), ['symbols', 'Cart.kt', '--repo', repo], app);
    expect(kotlin.stdout).toMatch(/class Cart \[L1-3\][\s\S]*fun total\(\)/);
    expect(mustRun(join(app, 'node_modules/.bin/reponav'), ['symbols', 'cart.c', '--repo', repo], app).stdout).toContain('cart_total');
  });

  it("runs the README's first command through the installed `reponav` bin", () => {
    const readme = readDoc();
    const first = findBlock(readme, 'Two commands', 'search').text;
    const query = /search "([^"]+)"/.exec(first)?.[1];
    expect(query).toBeTruthy();
    const result = mustRun(join(app, 'node_modules/.bin/reponav'), ['search', query!, '--repo', join(installed, 'sample/bookshop')], app);
    expect(result.stdout).toContain('[FILE] billing/invoice.py');
    expect(result.stdout).toContain('parse_discount_code');
    // The learned ranker reads the model the package ships, from the installed bin too.
    const learned = mustRun(join(app, 'node_modules/.bin/reponav'), ['search', query!, '--repo', join(installed, 'sample/bookshop'), '--ranker', 'learned'], app);
    expect(learned.stdout).toContain('[FILE] billing/invoice.py');
  });

  it("runs the README's library example against the installed package", () => {
    const example = findBlock(readDoc(), 'Library', "from 'reponav'").text;
    expect(example).toContain("'/path/to/repo'");
    const script = example.replace("'/path/to/repo'", JSON.stringify(join(installed, 'sample/bookshop')));
    writeFileSync(join(app, 'example.mjs'), script);
    const result = mustRun(process.execPath, ['example.mjs'], app);
    expect(result.stdout).toContain('[FILE]');
    expect(result.stderr).toBe('');
  });

  it('resolves the ESM entry from CommonJS by its default condition, as the README says', () => {
    const result = mustRun(
      process.execPath,
      ['-e', "console.log(require('reponav/package.json').type, require.resolve('reponav')); import('reponav').then((m) => console.log(typeof m.RepositoryIndex))"],
      app,
    );
    expect(result.stdout).toMatch(/^module .*node_modules[\\/]reponav[\\/]dist[\\/]reponav\.js\nfunction$/m);
    if (process.features.require_module) {
      expect(mustRun(process.execPath, ['-e', "console.log(typeof require('reponav').searchRepository)"], app).stdout.trim()).toBe('function');
    }
  });

  it('says how to install openai when a command needs it', () => {
    const result = run(join(app, 'node_modules/.bin/reponav'), ['ask', 'How is a discount applied?', '--repo', join(installed, 'sample/bookshop'), '--model', 'openai:gpt-4o-mini'], app, {
      OPENAI_API_KEY: 'sk-test-not-a-key',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('npm install openai@6');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('says how to install pg, pg-boss and prom-client when a team command needs them (a single-user install has none of them)', () => {
    expect(existsSync(join(app, 'node_modules/pg'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/pg-boss'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/prom-client'))).toBe(false);
    const result = run(join(app, 'node_modules/.bin/reponav'), ['fleet', 'list', '--pg', 'postgres://127.0.0.1:9/none'], app);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('npm install pg@8 pg-boss@10 prom-client@15');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('type-checks in a strict TypeScript consumer that checks library types (skipLibCheck false)', () => {
    // The consumer's own @types/node (with its undici-types), as any TypeScript project on Node.js has, and the
    // optional peer @types/better-sqlite3 the README names for TypeScript users; everything else comes from the install.
    for (const types of ['@types/node', 'undici-types', '@types/better-sqlite3']) {
      cpSync(join(PROJECT_ROOT, 'node_modules', types), join(app, 'node_modules', types), { recursive: true });
    }
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'] },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(
      join(app, 'consumer.ts'),
      [
        "import { RepositoryIndex, searchRepository, renderSearchResult, callTool, createToolRegistry, type SearchResult } from 'reponav';",
        "import { openMcpService } from 'reponav/mcp';",
        "import { askQuestion, createChatModel } from 'reponav/agents';",
        "import { createEmbedder } from 'reponav/dense';",
        'export async function main(): Promise<string> {',
        "  const repo = await RepositoryIndex.open('.');",
        "  const result: SearchResult = await searchRepository(repo.store, 'retry');",
        '  void [callTool, createToolRegistry, openMcpService, askQuestion, createChatModel, createEmbedder];',
        "  return renderSearchResult(repo.store, result, 'scaffold');",
        '}',
        '',
      ].join('\n'),
    );
    const tsc = run(process.execPath, [join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 300_000);
});
