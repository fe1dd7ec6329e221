#!/usr/bin/env node
/**
 * Fails (exit 1) when two files under ROOT/src import each other, type-only
 * imports and re-exports included. ESLint's import-x/no-cycle leaves type
 * imports out, and issue #13 asks that no two files import each other at all.
 * Test files are left out (a test imports the code it tests).
 *
 * Usage: node scripts/check-mutual-imports.mjs [ROOT]   (default: this checkout)
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) files.push(path);
  }
};
walk(join(root, 'src'));

// Relative specifiers of `import … from '…'` and `export … from '…'` (ESM specifiers end in .js for .ts files).
const edges = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const m of text.matchAll(/\b(?:import|export)\s[^;]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
    targets.add(resolve(dirname(file), m[1].replace(/\.js$/, '.ts')));
  }
  edges.set(file, targets);
}

const pairs = [];
for (const [a, targets] of edges) for (const b of targets) if (a < b && edges.get(b)?.has(a)) pairs.push(`${relative(root, a)} <-> ${relative(root, b)}`);
if (pairs.length > 0) {
  process.stderr.write(`${pairs.length} pair(s) of files import each other:\n${pairs.join('\n')}\n`);
  process.exit(1);
}
