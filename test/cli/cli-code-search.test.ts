/**
 * The built CLI's `references`, `regex` and `snippet`: the find_references,
 * regex_search and find_code_snippet tools, printing the tool's text (or JSON
 * with --json), exit 1 with one sentence when nothing is found.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCliPath } from '../mcp/built-cli.js';
import { copyFixture, type FixtureCopy } from '../mcp/fixture-repo.js';

describe('reponav references / regex / snippet', () => {
  let copy: FixtureCopy;
  let cli: string;

  beforeAll(() => {
    cli = builtCliPath();
    copy = copyFixture();
  });
  afterAll(() => copy?.cleanup());

  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args, '--repo', copy.root], { encoding: 'utf8', env: { ...process.env, REPONAV_CACHE_DIR: join(copy.dir, 'cache') }, cwd: copy.dir });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('references prints the call sites of a symbol, or JSON; exit 1 when nothing calls it', () => {
    const r = run('references', 'round_money', '-q');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 call site (1 same file):\nshop/pricing.py:20 in PriceCalculator.compute [same file]');
    const json = JSON.parse(run('references', 'PriceCalculator.compute', '--json', '-q').stdout);
    expect(json.references.length).toBeGreaterThan(0);
    const none = run('references', 'Cart.addItem', '-q');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^error: .*No calls of 'Cart.addItem'/);
  });

  it('regex prints matching lines; exit 1 when none match, 2 for a bad option', () => {
    const r = run('regex', 'def \\w+_money', '--file-pattern', '*.py', '-q');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('shop/pricing.py');
    expect(run('regex', 'NoSuchThingAnywhere123', '-q').code).toBe(1);
    expect(run('regex', 'x', '--max', '0', '-q').code).toBe(2);
  });

  it('snippet finds exact code text; exit 1 when it is nowhere', () => {
    const r = run('snippet', 'def round_money', '-q');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('shop/pricing.py');
    expect(run('snippet', 'this text is not in the fixture', '-q').code).toBe(1);
  });
});
