/**
 * The worker-thread parse path: the built CLI parses on worker threads when at
 * least 200 files change. Its index must hold exactly what an in-process index
 * of the same tree holds (same files, statuses, symbols, imports, chunks).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepositoryIndex } from '../../src/index/repository-index.js';
import { decodeParse } from '../../src/index/store/parsed-blob.js';
import { cleanupTempDirs, ensureBuilt, PROJECT_ROOT, put, runCli, tempDir } from './harness.js';

const PER_LANGUAGE = 60; // 5 languages → 300 files (≥ 200: workers)

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

function makeTree(root: string): void {
  for (let i = 0; i < PER_LANGUAGE; i++) {
    put(root, `py/pkg_${i % 7}/m${i}.py`, `from .m${(i + 1) % PER_LANGUAGE} import helper_${(i + 1) % PER_LANGUAGE}\n\n\nclass Service${i}(object):\n    """Service ${i}."""\n\n    def run(self, job):\n        return helper_${i}(job) + ${i}\n\n    async def stop(self):\n        pass\n\n\ndef helper_${i}(job):\n    return job * ${i}\n` + (i % 13 === 0 ? '\ndef broken(:\n' : ''));
    put(root, `ts/m${i}.ts`, `import { util${(i + 1) % PER_LANGUAGE} } from './m${(i + 1) % PER_LANGUAGE}.js';\n\nexport interface Shape${i} { area(): number }\n\nexport class Box${i} implements Shape${i} {\n  constructor(private side: number) {}\n  area(): number { return this.side * ${i}; }\n}\n\nexport function util${i}(x: number): number {\n  return util${(i + 1) % PER_LANGUAGE}(x) + ${i};\n}\n`);
    put(root, `go/m${i}.go`, `package shapes\n\nimport "fmt"\n\ntype Circle${i} struct{ R float64 }\n\nfunc (c Circle${i}) Area() float64 { return 3.14 * c.R * c.R }\n\nfunc Describe${i}() string { return fmt.Sprint(${i}) }\n`);
    put(root, `rs/m${i}.rs`, `pub struct Point${i} { x: i64 }\n\nimpl Point${i} {\n    pub fn norm(&self) -> i64 { self.x * ${i} }\n}\n\npub fn origin${i}() -> Point${i} { Point${i} { x: 0 } }\n`);
    put(root, `java/M${i}.java`, `package demo;\n\nimport java.util.List;\n\npublic class M${i} {\n    public int count(List<String> xs) { return xs.size() + ${i}; }\n    static String name() { return "m${i}"; }\n}\n`);
  }
}

/** A canonical dump of an index: everything parsing decides, nothing time- or id-dependent. */
function dump(indexPath: string) {
  const db = new Database(indexPath, { readonly: true });
  try {
    return {
      files: db.prepare('SELECT path, blob_id, language, status, error_count, decoded_with_replacement, line_count FROM files ORDER BY path').all(),
      symbols: db
        .prepare(
          `SELECT f.path, s.qualified_name, s.kind, s.parent, s.start_line, s.end_line, s.signature, s.doc, s.callees, s.bases
           FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.start_line, s.end_line, s.qualified_name, s.kind`,
        )
        .all(),
      imports: db.prepare('SELECT f.path, i.source, i.names, i.line FROM imports i JOIN files f ON f.id = i.file_id ORDER BY f.path, i.line, i.source').all(),
      chunks: db.prepare('SELECT f.path, c.kind, c.symbol, c.start_line, c.end_line, c.content_hash FROM chunks c JOIN files f ON f.id = c.file_id ORDER BY f.path, c.start_line, c.end_line, c.kind, c.symbol').all(),
      edges: db.prepare('SELECT from_path, to_path FROM import_edges ORDER BY from_path, to_path').all(),
    };
  } finally {
    db.close();
  }
}

describe('worker-thread parsing', () => {
  it('the built parse pool really starts workers (the worker script exists in dist/)', async () => {
    const poolModule = pathToFileURL(join(PROJECT_ROOT, 'dist/index/write/parse-pool.js')).href;
    const { createParsePool } = (await import(poolModule)) as typeof import('../../src/index/write/parse-pool.js');
    expect(existsSync(join(PROJECT_ROOT, 'dist/index/write/parse-worker.js'))).toBe(true);
    const pool = createParsePool(2);
    try {
      expect(pool.workerCount).toBe(2);
      const analysis = await pool.analyze('a.py', new TextEncoder().encode('def f():\n    return 1\n'));
      expect(decodeParse(analysis.parse.parsed).symbols.map((s) => s.name)).toEqual(['f']);
      expect(analysis.rows.chunks.length).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });

  it('the CLI (workers, ≥ 200 changed files) and an in-process index of the same tree are identical', async () => {
    const dir = tempDir('reponav-workers-');
    const root = join(dir, 'tree');
    makeTree(root);
    const total = PER_LANGUAGE * 5;

    const cliIndex = join(dir, 'cli.db');
    const result = runCli(['index', root, '--index-path', cliIndex, '--json'], { cacheDir: join(dir, 'cache') });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ listed: total, parsed: total });

    const inProcessIndex = join(dir, 'in-process.db');
    const repository = await RepositoryIndex.open(root, { indexPath: inProcessIndex });
    try {
      const report = await repository.refresh({ workers: 0 });
      expect(report).toMatchObject({ listed: total, parsed: total });
    } finally {
      repository.close();
    }

    // The built library with workers forced on, too (no CLI in between).
    const builtModule = pathToFileURL(join(PROJECT_ROOT, 'dist/index/repository-index.js')).href;
    const built = (await import(builtModule)) as typeof import('../../src/index/repository-index.js');
    const workerIndex = join(dir, 'workers.db');
    const viaWorkers = await built.RepositoryIndex.open(root, { indexPath: workerIndex });
    try {
      const report = await viaWorkers.refresh({ workers: 2, inProcessBelow: 0 });
      expect(report.parsed).toBe(total);
    } finally {
      viaWorkers.close();
    }

    const expected = dump(inProcessIndex);
    expect(expected.symbols.length).toBeGreaterThan(total * 2);
    expect(expected.files.filter((f) => (f as { status: string }).status === 'partial').length).toBeGreaterThan(0);
    const fromCli = dump(cliIndex);
    expect(fromCli.files).toEqual(expected.files);
    expect(fromCli.symbols.length).toBe(expected.symbols.length);
    expect(fromCli.symbols).toEqual(expected.symbols);
    expect(fromCli.imports).toEqual(expected.imports);
    expect(fromCli.chunks).toEqual(expected.chunks);
    expect(fromCli.edges).toEqual(expected.edges);
    expect(dump(workerIndex)).toEqual(expected);
  }, 300_000);
});
