/**
 * The tool-backed CLI commands of the built CLI: `symbols`, `find`, `view`,
 * `references`, `regex` and `snippet` print what the tools answer, and fail with one sentence and an exit code.
 * One call runs the built CLI (a tool command's start-up in the bundle); the rest run the program in-process.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCliPath } from './built-cli.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';
import { runCliInProcess as cli } from '../cli/in-process-cli.js';

describe('reponav symbols / find / view / references / regex / snippet', () => {
  let copy: FixtureCopy;
  let built: string;

  beforeAll(() => {
    built = builtCliPath();
    copy = copyFixture();
  });
  afterAll(() => copy?.cleanup());

  /** The built CLI: once, for the bundle's own start-up of a tool command. */
  const runBuilt = (...args: string[]) => {
    const r = spawnSync(process.execPath, [built, ...args, '--repo', copy.root], {
      encoding: 'utf8',
      env: { ...process.env, REPONAV_CACHE_DIR: join(copy.dir, 'cache') },
      cwd: copy.dir,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  /** The same program in this process (test/cli/in-process-cli.ts): nothing else here is about process start-up. */
  const run = (...args: string[]) => cli([...args, '--repo', copy.root], { cacheDir: join(copy.dir, 'cache'), cwd: copy.dir });

  it('symbols prints the skeleton, or JSON', async () => {
    const r = runBuilt('symbols', 'shop/pricing.py');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('class PriceCalculator [L12-23]  — Computes what a customer pays for an order.\n');
    const json = JSON.parse((await run('symbols', 'shop/pricing.py', '--json')).stdout);
    expect(json).toMatchObject({ path: 'shop/pricing.py', language: 'python', imports: [{ source: '.models', names: ['Order'] }] });
  });

  it('find class|function looks names up', async () => {
    const r = await run('find', 'function', 'checkout', '--file-pattern', '*.ts');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('web/src/cart.ts:24-28 Cart.checkout (method)');
    expect((await run('find', 'class', 'Store', '--json')).stdout).toContain('"qualifiedName": "Store"');
  });

  it('view prints a span or a symbol', async () => {
    expect((await run('view', 'shop/models.py:13-15')).stdout).toBe(
      '[FILE] shop/models.py (python, 50 lines) lines 13-15\n13 |     def subtotal(self) -> float:\n14 |         """Price of this line before discounts."""\n15 |         return self.quantity * self.unit_price\n',
    );
    expect((await run('view', '--symbol', 'Cart.total')).stdout).toContain('[FILE] web/src/cart.ts (typescript, 29 lines) lines 19-21 — Cart.total (method)');
  });

  it('fails with one sentence: exit 1 for bad input, 2 for usage', async () => {
    const outside = await run('view', '../../../etc/passwd');
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/^error: Path '.*' is outside the repository root .*\n$/);
    const missing = await run('symbols', 'shop/nope.py');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: 'shop\/nope.py' is not an indexed file of .*Closest indexed paths: /);
    expect((await run('find', 'method', 'x')).code).toBe(2);
    expect((await run('view')).code).toBe(2);
  });

  it('search that finds nothing exits 1 with its sentence on stderr, like rg; --json still prints the empty result', async () => {
    for (const format of ['scaffold', 'snippet', 'file-only', 'inline']) {
      const none = await run('search', 'zzqqxx wubbalubba', '--format', format);
      expect(none.code, format).toBe(1);
      expect(none.stdout, format).toBe('');
      expect(none.stderr, format).toMatch(/^error: No (candidate files|chunks) were retrieved for this query\.\n$/);
    }
    const json = await run('search', 'zzqqxx wubbalubba', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ files: [], functions: [] });
    expect(json.stderr).toMatch(/^error: No candidate files/);
    const hit = await run('search', 'order total tax');
    expect(hit.code).toBe(0);
    expect(hit.stdout).toContain('[FILE] shop/pricing.py');
  });

  it('references prints the call sites of a symbol, or JSON; exit 1 when nothing calls it', async () => {
    const r = await run('references', 'round_money', '-q');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 call site (1 same file):\nshop/pricing.py:20 in PriceCalculator.compute [same file]');
    const json = JSON.parse((await run('references', 'PriceCalculator.compute', '--json', '-q')).stdout);
    expect(json.references.length).toBeGreaterThan(0);
    const none = await run('references', 'Cart.addItem', '-q');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^error: .*No calls of 'Cart.addItem'/);
  });

  it('regex prints matching lines; exit 1 when none match, 2 for a bad option', async () => {
    const r = await run('regex', 'def \\w+_money', '--file-pattern', '*.py', '-q');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('shop/pricing.py');
    expect((await run('regex', 'NoSuchThingAnywhere123', '-q')).code).toBe(1);
    expect((await run('regex', 'x', '--max', '0', '-q')).code).toBe(2);
  });

  it('snippet finds exact code text; exit 1 when it is nowhere', async () => {
    const r = await run('snippet', 'def round_money', '-q');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('shop/pricing.py');
    expect((await run('snippet', 'this text is not in the fixture', '-q')).code).toBe(1);
  });
});
