/**
 * Bad input through the CLI: every failure is one `error: …` sentence on
 * stderr and a non-zero exit code (1 for a ReponavError, 2 for usage), never a
 * stack trace. The built CLI runs where a process matters (its exit code for
 * each kind of failure, stdin); the rest runs the same program in this process
 * (in-process-cli.ts, in the working folder a test gives). Also: damaged index files are rebuilt with a warning,
 * never trusted, and a foreign file at a user-given index path is refused.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/index/store/index-schema.js';
import {
  cleanupTempDirs,
  commitAll,
  copyIndexFixture,
  ensureBuilt,
  expectOneSentenceError,
  FIXTURE_FILES,
  gitInit,
  put,
  runCli,
  tempDir,
} from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

beforeAll(ensureBuilt, 300_000);

/** The one index database under a test's cache folder. */
function cachedIndexFile(cacheDir: string): string {
  const found = readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.db'));
  expect(found).toHaveLength(1);
  return join(cacheDir, found[0]!);
}
afterAll(cleanupTempDirs);

describe('bad repositories and revisions', () => {
  it('an empty repository (no indexable files) is exit 1 with one sentence', () => {
    const dir = tempDir();
    const root = join(dir, 'empty');
    put(root, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    put(root, 'node_modules/dep/index.js', 'module.exports = 1;\n');
    const result = runCli(['index', root], { cacheDir: join(dir, 'cache') });
    const line = expectOneSentenceError(result, 1);
    expect(line).toMatch(/No source files to index in .*empty/);
    expect(result.stdout).toBe('');
  });

  it('a long issue text (39,000 characters, mostly a pasted log) is accepted and searched; a query over 200,000 characters is refused with one sentence, as MCP refuses it', async () => {
    // A 10 MB query once ran 23 s and 860 MB; the cap is the search tool's, which the CLI goes through.
    const dir = tempDir();
    const root = join(dir, 'repo');
    put(root, 'app.py', 'def main():\n    return 1\n');
    put(root, 'billing/refunds.py', 'def apply_refund(invoice, amount):\n    # Refund part of an invoice.\n    return invoice.total - amount\n');
    const cacheDir = join(dir, 'cache');
    const log = Array.from({ length: 600 }, (_, i) => `[debug] 2024-01-0${i % 9} worker ${i} polled the queue and found nothing to do`).join('\n');
    const issue = `apply_refund returns a wrong total\n\nCalling \`apply_refund(invoice, 5)\` twice refunds twice.\n\n\`\`\`\n${log}\n\`\`\`\n`;
    expect(issue.length).toBeGreaterThan(38_000);
    // The argument in this process; stdin through the built CLI (a process's own input).
    for (const result of [await cli(['search', issue, '--repo', root], { cacheDir }), runCli(['search', '-', '--repo', root], { cacheDir, input: issue })]) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/\[FILE\] billing\/refunds\.py/);
    }
    // Past the limit (through stdin: an argument that long exceeds what the system passes to a process).
    const huge = 'word '.repeat(40_001);
    for (const result of [runCli(['search', '-', '--repo', root], { cacheDir, input: huge }), runCli(['search', '-', '--repo', root], { cacheDir, input: huge.repeat(50) })]) {
      const line = expectOneSentenceError(result, 1);
      expect(line).toMatch(/query is limited to 200000 characters/);
      expect(result.stdout).toBe('');
    }
  });

  it('a completely empty folder is exit 1 too', async () => {
    const dir = tempDir();
    const empty = join(dir, 'void');
    mkdirSync(empty);
    expectOneSentenceError(await cli(['index', empty], { cacheDir: join(dir, 'cache') }), 1);
  });

  it('a --workers value that is not a count is a usage error (exit 2) with one sentence, before anything is indexed', async () => {
    const { root, cacheDir } = copyIndexFixture();
    for (const value of ['two', '-1', '99']) {
      const line = expectOneSentenceError(await cli(['index', root, '--workers', value], { cacheDir }), 2);
      expect(line).toMatch(/Expected a worker count from 0 to 16/);
    }
    expect((await cli(['index', root, '--workers', '0', '--json'], { cacheDir })).code).toBe(0);
  });

  it('--commit on a folder that is not a git repository is exit 1 with one sentence', async () => {
    const { root, cacheDir } = copyIndexFixture();
    const line = expectOneSentenceError(await cli(['index', root, '--commit', 'HEAD'], { cacheDir }), 1);
    expect(line).toMatch(/is not a git repository/);
  });

  it('an unknown revision is exit 1 with one sentence naming it', async () => {
    const { root, cacheDir } = copyIndexFixture();
    gitInit(root);
    commitAll(root, 'one');
    const line = expectOneSentenceError(await cli(['index', root, '--commit', 'no-such-rev'], { cacheDir }), 1);
    expect(line).toContain("'no-such-rev'");
    const search = expectOneSentenceError(await cli(['search', 'cart', '--repo', root, '--commit', 'deadbeef'], { cacheDir }), 1);
    expect(search).toContain("'deadbeef'");
  });

  it('a path that does not exist is exit 1 with one sentence, for index, status and search', async () => {
    const dir = tempDir();
    const missing = join(dir, 'does-not-exist');
    const cacheDir = join(dir, 'cache');
    expect(expectOneSentenceError(await cli(['index', missing], { cacheDir }), 1)).toContain('does-not-exist');
    expect(expectOneSentenceError(await cli(['status', missing], { cacheDir }), 1)).toContain('does-not-exist');
    expectOneSentenceError(await cli(['search', 'cart', '--repo', missing], { cacheDir }), 1);
    expectOneSentenceError(await cli(['index', missing, '--commit', 'HEAD'], { cacheDir }), 1);
  });

  it('a bad --max-file-size is a usage error (exit 2) with one sentence', async () => {
    const { root, cacheDir } = copyIndexFixture();
    expect(expectOneSentenceError(await cli(['index', root, '--max-file-size', 'lots'], { cacheDir }), 2)).toContain("'lots'");
  });
});

describe('usage errors', () => {
  it('exit 2 for an unknown command', () => {
    expect(runCli(['frobnicate'], { cacheDir: tempDir() }).code).toBe(2);
  });

  it('exit 2 for an unknown option, a missing argument or a bad choice of a subcommand', async () => {
    const { root, cacheDir } = copyIndexFixture();
    expect((await cli(['index', root, '--bogus'], { cacheDir })).code).toBe(2);
    expect((await cli(['search'], { cacheDir })).code).toBe(2);
    expect((await cli(['search', 'x', '--repo', root, '--format', 'yaml'], { cacheDir })).code).toBe(2);
  });

  it('`find NAME` without a kind names the two commands to run instead of "unknown command NAME"', async () => {
    const { root, cacheDir } = copyIndexFixture();
    const line = expectOneSentenceError(await cli(['find', 'checkout', '--repo', root], { cacheDir }), 2);
    expect(line).toContain('reponav find function checkout');
    expect(line).toContain('reponav find class checkout');
    expect(line).not.toContain('unknown command');
  });

  it('a lookup that finds nothing exits 1 with one sentence, for find class, find function and view --symbol alike', async () => {
    const { root, cacheDir } = copyIndexFixture();
    for (const args of [['find', 'class', 'NoSuchThing'], ['find', 'function', 'no_such_thing'], ['view', '--symbol', 'no_such_thing']]) {
      const result = await cli([...args, '--repo', root, '-q'], { cacheDir });
      expect(expectOneSentenceError(result, 1), args.join(' ')).toMatch(/No (class|function|symbol) named 'no_?such_?thing'/i);
      expect(result.stdout, args.join(' ')).toBe('');
    }
    // --json still prints the (empty) answer for a script to read, and exits 1.
    const json = await cli(['find', 'function', 'no_such_thing', '--repo', root, '--json', '-q'], { cacheDir });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 0, matches: [] });
    expect((await cli(['find', 'function', 'compute_discount', '--repo', root, '-q'], { cacheDir })).code).toBe(0);
  });

  it('`find method NAME` points at the kind it means, with the name', async () => {
    const { root, cacheDir } = copyIndexFixture();
    const line = expectOneSentenceError(await cli(['find', 'method', 'checkout', '--repo', root], { cacheDir }), 2);
    expect(line).toContain('run `reponav find function checkout`');
    expect(line).not.toContain('find function method');
    expect(expectOneSentenceError(await cli(['find', 'struct', 'Order', '--repo', root], { cacheDir }), 2)).toContain('run `reponav find class Order`');
  });

  it('a query that starts with a dash gets the -- hint, and after -- it is searched', async () => {
    const { root, cacheDir } = copyIndexFixture();
    const line = expectOneSentenceError(await cli(['search', '--max-file-size is ignored by reserve', '--repo', root], { cacheDir }), 2);
    expect(line).toContain("goes after --");
    expect(expectOneSentenceError(await cli(['index', root, '--bogus'], { cacheDir }), 2)).toContain('run with --help for usage');
    const searched = await cli(['search', '--repo', root, '--', '--max-file-size is ignored by reserve'], { cacheDir });
    expect(searched.code, searched.stderr).toBe(0);
    expect(searched.stdout).toContain('[FILE]');
  });
});

describe('files the tool commands cannot show', () => {
  let fixture: ReturnType<typeof copyIndexFixture>;
  beforeAll(async () => {
    fixture = copyIndexFixture();
    expect((await cli(['index', fixture.root, '-q'], { cacheDir: fixture.cacheDir })).code).toBe(0);
  });

  for (const command of ['symbols', 'view']) {
    it(`${command} of a path outside the root is exit 1 with one sentence`, async () => {
      const result = await cli([command, '../../etc/passwd', '--repo', fixture.root], { cacheDir: fixture.cacheDir, cwd: fixture.root });
      const line = expectOneSentenceError(result, 1);
      expect(line).toMatch(/outside the repository root/);
      expect(result.stdout).toBe('');
    });

    it(`${command} of a missing file is exit 1 and names the closest indexed paths`, async () => {
      const result = await cli([command, 'inventory/stocks.py', '--repo', fixture.root], { cacheDir: fixture.cacheDir });
      const line = expectOneSentenceError(result, 1);
      expect(line).toContain('inventory/stock.py');
    });
  }

  it('symbols of an indexed file succeeds', async () => {
    const result = await cli(['symbols', 'inventory/stock.py', '--repo', fixture.root], { cacheDir: fixture.cacheDir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('StockLedger');
  });
});

describe('partial parses and undecodable bytes through the CLI', () => {
  it('a syntax-error file is indexed and counted as partial; a Latin-1 file is indexed', async () => {
    const { root, cacheDir } = copyIndexFixture();
    put(root, 'tools/broken.py', 'def ok():\n    return 1\n\ndef broken(:\n    pass\n');
    put(root, 'tools/latin1.py', Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\ndef brulee():\n    pass\n')]));
    const result = await cli(['index', root, '--json'], { cacheDir });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ listed: FIXTURE_FILES.length + 2, parsed: FIXTURE_FILES.length + 2, partial: 1 });
    const status = JSON.parse((await cli(['status', root, '--json'], { cacheDir })).stdout);
    expect(status.partialFiles).toBe(1);
    const db = new Database(report.indexPath, { readonly: true });
    try {
      const rows = db.prepare("SELECT path, status, decoded_with_replacement AS replaced FROM files WHERE path LIKE 'tools/%' ORDER BY path").all();
      expect(rows).toEqual([
        { path: 'tools/broken.py', status: 'partial', replaced: 0 },
        { path: 'tools/latin1.py', status: 'ok', replaced: 1 },
        { path: 'tools/report.py', status: 'ok', replaced: 0 },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('index files that must not be trusted', () => {
  it('an index with another schema version is rebuilt with a warning on stderr', async () => {
    const { root, cacheDir, indexPath } = copyIndexFixture();
    expect((await cli(['index', root, '--index-path', indexPath, '-q'], { cacheDir })).code).toBe(0);
    const db = new Database(indexPath);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION - 1));
    db.close();
    const result = await cli(['index', root, '--index-path', indexPath, '--json'], { cacheDir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`warn: index at .*schema version ${SCHEMA_VERSION - 1}.*rebuilding`));
    expect(JSON.parse(result.stdout)).toMatchObject({ parsed: FIXTURE_FILES.length, unchanged: 0 });
  });

  it('a garbage file in the cache is rebuilt with a warning on stderr', async () => {
    const { root, cacheDir } = copyIndexFixture();
    expect((await cli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    const cached = cachedIndexFile(cacheDir);
    writeFileSync(cached, Buffer.alloc(10_000, 0x41));
    rmSync(cached + '-wal', { force: true });
    const result = await cli(['index', root, '--json'], { cacheDir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warn: index at .*rebuilding/);
    expect(JSON.parse(result.stdout)).toMatchObject({ parsed: FIXTURE_FILES.length });
    // Next run trusts the rebuilt index.
    const again = await cli(['index', root, '--json'], { cacheDir });
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toMatchObject({ parsed: 0, unchanged: FIXTURE_FILES.length });
  });

  it('a file that is not a reponav index at --index-path is refused and left as it was', async () => {
    const { root, cacheDir, indexPath } = copyIndexFixture();
    const content = Buffer.alloc(10_000, 0x41);
    put(join(indexPath, '..'), 'index.db', content);
    const result = await cli(['index', root, '--index-path', indexPath, '--json'], { cacheDir });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/index\.db is not a reponav index .*refusing to overwrite it\. Delete it yourself or pass another --index-path/);
    expect(readFileSync(indexPath)).toEqual(content);
  });

  it('status (read-only) on a garbage index in the cache says so and changes nothing; index then rebuilds it', async () => {
    const { root, cacheDir } = copyIndexFixture();
    expect((await cli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    const cached = cachedIndexFile(cacheDir);
    writeFileSync(cached, 'garbage'.repeat(1000));
    const result = await cli(['status', root, '--json'], { cacheDir });
    expect(expectOneSentenceError(result, 1)).toMatch(/is damaged.*run `reponav index` to rebuild it \(this command changed nothing\)/);
    expect(readFileSync(cached, 'utf8')).toBe('garbage'.repeat(1000));
    const rebuilt = await cli(['index', root], { cacheDir });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toMatch(/is damaged.*rebuilding it/);
    expect(JSON.parse((await cli(['status', root, '--json'], { cacheDir })).stdout)).toMatchObject({ complete: true, files: FIXTURE_FILES.length });
  });
});
