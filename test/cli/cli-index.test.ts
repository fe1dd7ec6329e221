/**
 * End-to-end tests of the CLI: index, status, search and help, as an agent or
 * a user in a pipe sees them (stdout is not a TTY). What needs a process (the
 * shipped bundle's start-up, a pipe's output, stdin, the exit code) runs the
 * built CLI (`node dist/cli/main.js`) once per behaviour; the rest runs the
 * same program in this process (in-process-cli.ts). Every run gets
 * REPONAV_CACHE_DIR in a temporary folder.
 */
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepositoryIndex } from '../../src/index/repository-index.js';
import { NEXT_STEP_CUE, searchResultJsonSchema } from '../../src/scaffold/index.js';
import { runToolOnce } from '../../src/tools/run-tool-once.js';
import {
  cleanupTempDirs,
  commitAll,
  copyIndexFixture,
  ensureBuilt,
  FIXTURE_FILES,
  gitInit,
  put,
  runCli,
  tempDir,
} from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

const N = FIXTURE_FILES.length;
const ESC = '\x1b';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

describe('reponav index', () => {
  it('prints a one-line summary (plus the index path) without progress-bar escape codes', () => {
    const { root, cacheDir } = copyIndexFixture();
    put(root, 'debug.log', 'x\n');
    const result = runCli(['index', root], { cacheDir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain(ESC);
    expect(result.stdout).not.toContain('\r');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Indexed ${N} files of ${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in \\d+\\.\\d\\d s \\(${N} parsed, 0 reused, 0 unchanged, 0 removed, \\d+ files/s\\); 0 partial parses, 0 failed\\.$`));
    expect(lines).toContain('Skipped: 1 ignored.');
    const indexLine = lines.find((l) => l.startsWith('Index: '))!;
    expect(indexLine.startsWith(`Index: ${cacheDir}/`)).toBe(true);
    expect(existsSync(indexLine.slice('Index: '.length))).toBe(true);
  });

  it('--json prints valid JSON with the report fields; a second run is all unchanged', async () => {
    const { root, cacheDir } = copyIndexFixture();
    const first = await cli(['index', root, '--json'], { cacheDir });
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ mode: 'worktree', root, commit: null, listed: N, parsed: N, unchanged: 0, reused: 0, deleted: 0, partial: 0 });
    for (const key of ['skipped', 'skippedExamples', 'durationMs', 'indexPath']) expect(report).toHaveProperty(key);
    expect(report.indexPath.startsWith(cacheDir)).toBe(true);
    const second = JSON.parse((await cli(['index', root, '--json'], { cacheDir })).stdout);
    expect(second).toMatchObject({ parsed: 0, unchanged: N, indexPath: report.indexPath });
  });

  it('index -q prints nothing when all goes well, skips included (errors only)', async () => {
    const { root, cacheDir } = copyIndexFixture();
    put(root, 'blob.py', Buffer.from([0x78, 0x00, 0x0a]));
    const result = await cli(['index', root, '-q'], { cacheDir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
    expect((await cli(['index', root], { cacheDir })).stdout).toMatch(/^Indexed \d+ files/);
  });

  it('honours --index-path, --max-file-size and -q', async () => {
    const { root, cacheDir, indexPath } = copyIndexFixture();
    const result = await cli(['index', root, '--index-path', indexPath, '--max-file-size', '600', '--json', '-q'], { cacheDir });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.indexPath).toBe(indexPath);
    expect(existsSync(indexPath)).toBe(true);
    expect(report.skipped['too-large']).toBeGreaterThan(0);
    expect(report.listed + report.skipped['too-large']).toBe(N);
    // Nothing was written to the cache folder when --index-path was given.
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('indexes commits of a git repository with --commit and moves between them re-parsing only changes', async () => {
    const { root, cacheDir } = copyIndexFixture();
    gitInit(root);
    const c1 = commitAll(root, 'one');
    put(root, 'web/cart.ts', readFileSync(join(root, 'web/cart.ts'), 'utf8') + '\nexport const VERSION = 2;\n');
    const c2 = commitAll(root, 'two');
    const first = JSON.parse((await cli(['index', root, '--commit', c1.slice(0, 7), '--json'], { cacheDir })).stdout);
    expect(first).toMatchObject({ mode: 'commit', commit: c1, parsed: N });
    const second = await cli(['index', root, '--commit', 'HEAD', '--json'], { cacheDir });
    expect(second.code, second.stderr).toBe(0);
    const report = JSON.parse(second.stdout);
    expect(report).toMatchObject({ mode: 'commit', commit: c2, unchanged: N - 1, indexPath: first.indexPath });
    expect(report.parsed + report.reused).toBe(1);
    const text = await cli(['index', root, '--commit', c1], { cacheDir });
    expect(text.stdout).toContain(`@ ${c1.slice(0, 12)}`);
  });
});

describe('reponav status', () => {
  it('--json reports what is indexed and what is stale, and plain text says STALE / up to date', async () => {
    const { root, cacheDir } = copyIndexFixture();
    const never = await cli(['status', root, '--json'], { cacheDir });
    expect(never.code, never.stderr).toBe(0);
    expect(JSON.parse(never.stdout)).toMatchObject({ indexedAt: null, files: 0 });
    expect((await cli(['status', root], { cacheDir })).stdout).toContain('Indexed:    never');

    await cli(['index', root], { cacheDir });
    const fresh = JSON.parse((await cli(['status', root, '--json'], { cacheDir })).stdout);
    expect(fresh).toMatchObject({ mode: 'worktree', root, commit: null, complete: true, files: N, partialFiles: 0, stale: { changed: [], added: [], deleted: [] } });
    expect(fresh.symbols).toBeGreaterThan(10);
    expect(fresh.languages.python).toBe(4);
    expect((await cli(['status', root], { cacheDir })).stdout).toContain('Freshness:  up to date');

    const cart = join(root, 'web/cart.ts');
    writeFileSync(cart, readFileSync(cart, 'utf8') + '\n// more\n');
    const later = new Date(Date.now() + 10_000);
    utimesSync(cart, later, later);
    put(root, 'tools/new_tool.py', 'def new_tool():\n    pass\n');
    rmSync(join(root, 'tools/report.py'));
    const stale = JSON.parse((await cli(['status', root, '--json'], { cacheDir })).stdout);
    expect(stale.stale).toEqual({ changed: ['web/cart.ts'], added: ['tools/new_tool.py'], deleted: ['tools/report.py'] });
    const plain = await cli(['status', root], { cacheDir });
    expect(plain.stderr).toBe('');
    const text = plain.stdout;
    expect(text).toContain('Freshness:  STALE: 1 changed, 1 added, 1 deleted');
    expect(text).toContain('  deleted: tools/report.py');

    const reindex = JSON.parse((await cli(['index', root, '--json'], { cacheDir })).stdout);
    expect(reindex).toMatchObject({ parsed: 2, deleted: 1, unchanged: N - 2 });
    expect(JSON.parse((await cli(['status', root, '--json'], { cacheDir })).stdout).stale).toEqual({ changed: [], added: [], deleted: [] });
  });
});

describe('reponav search', () => {
  const query = 'reserve_items raises OutOfStockError even though the shelf has items';
  let fixture: ReturnType<typeof copyIndexFixture>;
  beforeAll(() => {
    fixture = copyIndexFixture();
  });

  it('prints the RepoNav scaffold with [ANCHORS] and the next-step cue', () => {
    const result = runCli(['search', query, '--repo', fixture.root], { cacheDir: fixture.cacheDir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(ESC);
    expect(result.stdout).toContain('[FILE] inventory/stock.py');
    expect(result.stdout).toContain('[ANCHORS]');
    expect(result.stdout).toMatch(/- StockLedger\.reserve_items \[L\d+-\d+\]/);
    expect(result.stdout).toContain(NEXT_STEP_CUE);
    // The first file block is the one the query is about.
    expect(/\[FILE\] (\S+)/.exec(result.stdout)?.[1]).toBe('inventory/stock.py');
  });

  it('--format json parses and ranks the right file and function first', async () => {
    const result = await cli(['search', query, '--repo', fixture.root, '--format', 'json'], { cacheDir: fixture.cacheDir });
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.query).toBe(query);
    expect(json.files[0].path).toBe('inventory/stock.py');
    expect(json.functions[0].id).toBe('inventory/stock.py:StockLedger.reserve_items');
    expect(json).toHaveProperty('scaffold');
    expect(JSON.parse((await cli(['search', query, '--repo', fixture.root, '--json'], { cacheDir: fixture.cacheDir })).stdout)).toEqual(json);
  });

  it('answers what the search tools answer an MCP client: same text, same JSON shape', async () => {
    const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
    try {
      await repository.refresh();
      for (const [format, tool] of [['scaffold', 'search'], ['snippet', 'snippet_search']] as const) {
        const answer = await cli(['search', query, '--repo', fixture.root, '--format', format, '--budget', '400'], { cacheDir: fixture.cacheDir });
        expect(answer.code, answer.stderr).toBe(0);
        expect(answer.stdout).toBe(`${(await runToolOnce(repository, tool, { query, budget_tokens: 400 })).text}\n`);
      }
      const json = JSON.parse((await cli(['search', query, '--repo', fixture.root, '--json'], { cacheDir: fixture.cacheDir })).stdout);
      expect(json).toEqual((await runToolOnce(repository, 'search', { query })).data);
      expect(searchResultJsonSchema().parse(json)).toEqual(json);
    } finally {
      repository.close();
    }
  });

  it('reads the query from stdin with "-" and filters with --file-pattern', () => {
    const result = runCli(['search', '-', '--repo', fixture.root, '--file-pattern', 'web/**', '--format', 'file-only'], {
      cacheDir: fixture.cacheDir,
      input: 'checkout of an empty cart fails with HTTP 500\n',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('web/checkout.ts');
    expect(result.stdout).not.toContain('inventory/');
  });
});

describe('reponav --help', () => {
  it('lists the commands', () => {
    const result = runCli(['--help'], { cacheDir: tempDir() });
    expect(result.code).toBe(0);
    for (const command of ['index', 'status', 'search']) expect(result.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('lists the tool commands (symbols, find, view, mcp) once they are registered', async () => {
    const result = await cli(['--help'], { cacheDir: tempDir() });
    for (const command of ['symbols', 'find', 'view', 'mcp']) expect(result.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('index --help documents its options; an unknown command is a usage error', async () => {
    const help = await cli(['index', '--help'], { cacheDir: tempDir() });
    expect(help.code).toBe(0);
    for (const option of ['--commit', '--index-path', '--max-file-size', '--json', '--quiet']) expect(help.stdout).toContain(option);
    // The built CLI's exit code for it is cli-errors.test.ts's.
    expect((await cli(['frobnicate'], { cacheDir: tempDir() })).code).toBe(2);
  });

  it('mcp --help states the defaults a user gets (no --repo serves the current folder), not an empty list', async () => {
    const help = (await cli(['mcp', '--help'], { cacheDir: tempDir() })).stdout;
    expect(help).not.toContain('(default: [])');
    expect(help).toMatch(/--repo <path>[\s\S]*?\(default: the current\s+folder\)/);
  });

  it('no command help shows a raw default ([] or a byte count) instead of what it means', async () => {
    const top = (await cli(['--help'], { cacheDir: tempDir() })).stdout;
    const commands = [...top.split('Commands:')[1]!.matchAll(/^ {2}(\w[\w-]*)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands).toContain('serve');
    for (const command of commands) {
      const help = (await cli([command, '--help'], { cacheDir: tempDir() })).stdout;
      expect(help, command).not.toContain('(default: [])');
      expect(help, command).not.toMatch(/\(default: \d{7,}\)/);
    }
  });

  it('eval --help names every harness it runs, SWE-QA included', async () => {
    const help = (await cli(['eval', '--help'], { cacheDir: tempDir() })).stdout;
    expect(help.split('Options:')[0]).toMatch(/SWE-QA/);
  });
});
