/**
 * A file that cannot be parsed is never hidden: its reason is kept, it is
 * counted in the index summary and in `status` (text, --json, -v), and the next
 * index run parses it again instead of calling it unchanged. The grammar
 * loader is made to fail for TypeScript (as the load race once did), in this
 * process, so the whole CLI runs in-process with the failure in place.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/program.js';
import { cleanupTempDirs, copyIndexFixture, FIXTURE_FILES } from './harness.js';

const broken = vi.hoisted(() => ({ typescript: false }));

vi.mock('../../src/parse/grammar-loader.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/parse/grammar-loader.js')>();
  return {
    ...real,
    loadGrammar: (id: string) =>
      broken.typescript && id === 'typescript' ? Promise.reject(new Error("bad export type for 'tree_sitter_typescript_external_scanner_create'")) : real.loadGrammar(id),
  };
});

afterAll(cleanupTempDirs);
afterEach(() => {
  broken.typescript = false;
});

/** Runs the CLI in this process; returns exit code, stdout and stderr. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    const code = await main(['node', 'reponav', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const TS_FILES = ['web/cart.ts', 'web/checkout.ts'];
const REASON = "bad export type for 'tree_sitter_typescript_external_scanner_create'";

describe('failed parses', () => {
  it('are counted and explained by index and status, and parsed again by the next run', async () => {
    const { root, indexPath } = copyIndexFixture();
    const where = ['--index-path', indexPath];
    broken.typescript = true;

    const first = await cli('index', root, ...where, '--workers', '0', '--json');
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ parsed: FIXTURE_FILES.length, failed: 2 });
    expect(report.failures).toEqual(TS_FILES.map((path) => ({ path, reason: REASON })));

    // Still broken: the failed files are parsed again, not reported as unchanged.
    const text = await cli('index', root, ...where);
    expect(text.stdout).toMatch(/\(2 parsed, 0 reused, 7 unchanged, 0 removed.*\); 0 partial parses, 2 failed\./);
    expect(text.stdout).toContain(`Failed to parse (indexed as text; the next run tries again): web/cart.ts (${REASON}), web/checkout.ts (${REASON}).`);

    const status = await cli('status', root, ...where);
    expect(status.stdout).toContain('0 partial parses, 2 failed parses');
    expect(status.stdout).toMatch(/^Failed: +2 files could not be parsed/m);
    expect(status.stdout).toContain(`  failed: web/cart.ts: ${REASON}`);
    const json = JSON.parse((await cli('status', root, ...where, '--json')).stdout);
    expect(json).toMatchObject({ failedFiles: 2, failures: TS_FILES.map((path) => ({ path, reason: REASON })) });
    expect((await cli('status', root, ...where, '-v')).stdout).toContain(`  failed: web/checkout.ts: ${REASON}`);

    // Mended: the next run parses them and the failure is gone everywhere.
    broken.typescript = false;
    const mended = JSON.parse((await cli('index', root, ...where, '--json')).stdout);
    expect(mended).toMatchObject({ parsed: 2, unchanged: FIXTURE_FILES.length - 2, failed: 0, failures: [] });
    const after = await cli('status', root, ...where);
    expect(after.stdout).toContain('0 partial parses, 0 failed parses');
    expect(after.stdout).not.toContain('Failed:');
    const symbols = await cli('symbols', 'web/cart.ts', '--repo', root, ...where);
    expect(symbols.stdout).toMatch(/class Cart/);
  }, 120_000);
});
