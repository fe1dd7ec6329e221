/**
 * bench/history-instances.mjs on a tiny repository built here: one fix commit
 * among commits the rules must skip gives exactly one LocBench instance whose
 * gold is the outermost changed functions of the parent's version.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { PROJECT_ROOT, cleanupTempDirs, commitAll, ensureBuilt, git, gitInit, put, tempDir } from '../cli/harness.js';

const SCRIPT = join(PROJECT_ROOT, 'bench/history-instances.mjs');

const BEFORE = `LIMIT = 10


class Basket:
    kind = "plain"

    def total(self, items):
        return sum(items)

    def count(self, items):
        return len(items)


def outer(values):
    def inner(value):
        return value * 2
    return [inner(v) for v in values]


def untouched():
    return None
`;

// Changes: a line inside Basket.total; a line appended to the body of
// Basket.count, its last line (counts for it); one inside the nested function
// outer.inner (counts for outer); a class attribute and a new function after
// the last one (no function of the parent).
const FIXED = BEFORE.replace('        return sum(items)', '        return sum(i for i in items if i is not None)')
  .replace('        return len(items)\n', '        return len(items)\n        # counted\n')
  .replace('        return value * 2\n', '        value = value or 0\n        return value * 2\n')
  .replace('kind = "plain"', 'kind = "fixed"')
  .concat('\n\ndef added():\n    return 1\n');

let repo: string;
let parent: string;
let fix: string;
let merge: string;
let beforeMerge: string;

beforeAll(async () => {
  await ensureBuilt();
  repo = tempDir('reponav-history-');
  gitInit(repo);
  put(repo, 'shop/basket.py', BEFORE);
  put(repo, 'tests/test_basket.py', 'def test_total():\n    assert True\n');
  commitAll(repo, 'Initial import');
  parent = commitAll(repo, 'Add docs'); // empty: the fix's parent is this commit
  put(repo, 'shop/basket.py', FIXED);
  put(repo, 'tests/test_basket.py', 'def test_total():\n    assert 1 + 1 == 2\n');
  fix = commitAll(repo, 'Fix Basket total with missing items (#42)\n\nNone items made the sum fail.\n\nSigned-off-by: A Dev <a@example.com>');
  const counted = FIXED.replace('return len(items)', 'return len(list(items))');
  put(repo, 'shop/basket.py', counted);
  commitAll(repo, 'Count iterables'); // not a fix message
  put(repo, 'shop/basket.py', counted.replace('LIMIT = 10', 'LIMIT = 20'));
  commitAll(repo, 'Fix the limit being too low'); // module level only: no function gold
  put(repo, 'tests/test_basket.py', 'def test_total():\n    assert 2 == 2\n');
  beforeMerge = commitAll(repo, 'Fix flaky test in the basket suite'); // tests only
  // A pull request merged with a merge commit: its title is in the merge's body.
  git(repo, 'checkout', '-q', '-b', 'feature');
  put(repo, 'shop/basket.py', counted.replace('LIMIT = 10', 'LIMIT = 20').replace('return value * 2', 'return value * 3'));
  commitAll(repo, 'wip');
  git(repo, 'checkout', '-q', 'main');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'merge', '-q', '--no-ff', 'feature', '-m', 'Merge pull request #9 from dev/feature\n\nFix doubling of outer values');
  merge = git(repo, 'rev-parse', 'HEAD');
}, 240_000);

afterAll(() => cleanupTempDirs());

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [SCRIPT, join(repo, '.git'), ...args], { encoding: 'utf8' });
}

describe('history-instances.mjs', () => {
  it('turns the one fix commit into a LocBench instance with function-level gold from the parent', () => {
    const result = run('--repo', 'acme/shop');
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const instance = JSON.parse(lines[0] ?? '{}');
    expect(instance).toMatchObject({
      instance_id: `acme__shop-${fix.slice(0, 12)}`,
      repo: 'acme/shop',
      base_commit: parent,
      category: 'Bug Report',
      problem_statement: 'Fix Basket total with missing items\n\nNone items made the sum fail.',
      edit_functions: ['shop/basket.py:Basket.total', 'shop/basket.py:Basket.count', 'shop/basket.py:outer'],
      fix_commit: fix,
    });
    expect(instance.patch).toContain('-        return sum(items)');
    expect(result.stderr).toContain('a source file changes outside functions only 1');
    expect(result.stderr).toContain('no non-test source file 1');
  });

  it('with --merges turns a pull-request merge into an instance whose query is its title, and says so', () => {
    const result = run('--repo', 'acme/shop', '--merges');
    expect(result.status, result.stderr).toBe(0);
    const instances = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(instances.map((i) => i.fix_commit)).toEqual([merge, fix]);
    expect(instances[0]).toMatchObject({
      base_commit: beforeMerge,
      problem_statement: 'Fix doubling of outer values',
      edit_functions: ['shop/basket.py:outer'],
      query_source: 'merge-pull-request',
      issue_refs: [9],
    });
    expect(instances[1]).toMatchObject({ query_source: 'pull-request-title', issue_refs: [42] });
    const only = join(repo, 'only.txt');
    writeFileSync(only, `${fix}\n`);
    const rebuilt = run('--repo', 'acme/shop', '--merges', '--commits', only);
    expect(rebuilt.stdout.trim().split('\n').map((line) => JSON.parse(line).fix_commit)).toEqual([fix]);
  });

  it('takes the newest --max and refuses an unnamed repository', () => {
    expect(run('--repo', 'acme/shop', '--max', '0').stdout).toBe('');
    const unnamed = run();
    expect(unnamed.status).toBe(2);
    expect(unnamed.stderr).toContain('--repo owner/name');
  });
});
