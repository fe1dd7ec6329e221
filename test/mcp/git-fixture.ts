/**
 * Test support: the tools fixture as a git repository with a fixed history
 * (two commits by one author at fixed dates), then a staged edit, an unstaged
 * edit and an untracked file in its working tree; and a bare mirror of it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs git in `cwd` with a fixed identity and dates, returning stdout. */
export function fixtureGit(cwd: string, ...args: string[]): string {
  const env = { ...process.env, GIT_AUTHOR_DATE: '2024-01-02T03:04:05Z', GIT_COMMITTER_DATE: '2024-01-02T03:04:05Z', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd };
  return execFileSync('git', ['-c', 'user.name=Ada Lovelace', '-c', 'user.email=ada@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, env }).toString();
}

function edit(root: string, path: string, change: (text: string) => string): void {
  writeFileSync(join(root, path), change(readFileSync(join(root, path), 'utf8')));
}

/**
 * Makes `root` a git repository: commit 1 holds the fixture; commit 2 adds
 * `helper` to shop/models.py and changes Order.total; then web/src/cart.ts is
 * changed and staged, shop/pricing.py renames round_money unstaged, and
 * notes.py is new and untracked.
 */
export function makeGitHistory(root: string): void {
  fixtureGit(root, 'init', '-q');
  fixtureGit(root, 'add', '.');
  fixtureGit(root, 'commit', '-qm', 'Add the shop');
  edit(root, 'shop/models.py', (t) => t.replace('return self._apply_discount(gross)', 'return round(self._apply_discount(gross), 2)') + '\n\ndef helper() -> int:\n    return 1\n');
  fixtureGit(root, 'commit', '-qam', 'Round order totals');
  edit(root, 'web/src/cart.ts', (t) => t.replace('total(): number {', 'total(): number {\n    // sums the lines'));
  fixtureGit(root, 'add', 'web/src/cart.ts');
  edit(root, 'shop/pricing.py', (t) => t.replaceAll('round_money', 'round_cents'));
  writeFileSync(join(root, 'notes.py'), 'def note() -> None:\n    pass\n');
}

/** A bare mirror of the repository at `root`, cloned into `target`. */
export function bareMirror(root: string, target: string): string {
  fixtureGit(root, 'clone', '-q', '--bare', root, target);
  return target;
}
