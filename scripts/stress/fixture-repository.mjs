/**
 * The stress suite's fixture repository (run.mjs): Python modules in pkg/ and
 * one TypeScript file, over two commits.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes module `i` of the fixture (pkg/mod_<i>.py: a class, a function and
 * a body whose length varies with `i`), with `extra` appended.
 */
export function writeModule(root, i, extra = '') {
  const lines = [
    `"""Module ${i}."""`,
    'import os',
    '',
    `class Widget${i}:`,
    `    def render_${i}(self, size: int) -> str:`,
    `        return os.path.join("w", str(size))`,
    '',
    `def compute_value_${i}(x: int) -> int:`,
    `    """Compute the value of widget ${i}."""`,
    ...Array.from({ length: 8 + ((i * 7) % 23) }, (_, k) => `    x = x + ${k}`),
    '    return x',
    extra,
  ];
  mkdirSync(join(root, 'pkg'), { recursive: true });
  writeFileSync(join(root, 'pkg', `mod_${i}.py`), lines.join('\n') + '\n');
}

/** Runs git in `cwd`; returns its trimmed output (throws when git fails). */
export function git(cwd, ...argv) {
  return execFileSync('git', argv, { cwd, encoding: 'utf8' }).trim();
}

/** How many modules the fixture's first commit holds. */
export const MODULES = 40;

/**
 * A small repository (40 modules) with two commits, in `<work>/repo`:
 * `b` changes 20 modules of `a` and deletes the last one.
 */
export function makeRepository(work) {
  const root = join(work, 'repo');
  for (let i = 0; i < MODULES; i++) writeModule(root, i);
  writeFileSync(join(root, 'app.ts'), 'export function startApp(port: number): void {\n  console.log(port);\n}\n');
  git(root, 'init', '-q', '-b', 'main');
  const commit = (message) => {
    git(root, 'add', '-A');
    git(root, '-c', 'user.name=s', '-c', 'user.email=s@s', 'commit', '-q', '-m', message);
    return git(root, 'rev-parse', 'HEAD');
  };
  const a = commit('a');
  for (let i = 0; i < 20; i++) writeModule(root, i, `\ndef changed_${i}():\n    return ${i}\n`);
  rmSync(join(root, 'pkg', `mod_${MODULES - 1}.py`));
  const b = commit('b');
  return { root, commits: { a, b } };
}
