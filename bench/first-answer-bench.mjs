#!/usr/bin/env node
// First-answer benchmark (issue #15, goal 5): on a never-indexed copy of TREE,
// how long the first `reponav search` takes (a provisional text scan while the
// index builds in the background) next to `rg -n WORD` on the same copy, then
// how long the background index took and that the next search uses it.
//
// Usage: node bench/first-answer-bench.mjs TREE [--query "WORDS"] [--keep]
// The copy and its index live in a temp folder. Needs `npm run build`; rg on PATH for the reference
// (and for the fast scan: without it the scan reads the files in-process).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PROJECT, 'dist/cli/main.js');
const { values: opt, positionals } = parseBenchArgs({
  usage: 'usage: node bench/first-answer-bench.mjs TREE [--query "WORDS"] [--keep]',
  options: { query: { type: 'string' }, keep: { type: 'boolean' } },
  minPositionals: 1,
  maxPositionals: 1,
});
const tree = positionals[0];
const { WriterLock } = await import(pathToFileURL(join(PROJECT, 'dist/index/store/writer-lock.js')).href);
const query = opt.query ?? 'request timeout retry';
const word = query.split(/\s+/)[0];
const work = mkdtempSync(join(tmpdir(), 'reponav-first-answer-'));
const root = join(work, 'tree');
const indexPath = join(work, 'index.db');
const env = { ...process.env, REPONAV_CACHE_DIR: join(work, 'cache') };
const run = (command, argv) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(command, argv, { env, encoding: 'utf8', maxBuffer: 512 << 20 });
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, stdout: r.stdout ?? '', code: r.status };
};

console.log(`# first-answer-bench: ${resolve(tree)}  query="${query}"`);
console.log(`cores ${availableParallelism()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
cpSync(resolve(tree), root, { recursive: true });
run('rg', ['-n', word, root]); // warm the page cache for both
const rg = run('rg', ['-n', word, root]);
const first = run('node', [CLI, 'search', query, '--repo', root, '--index-path', indexPath]);
const provisional = first.stdout.startsWith('[PROVISIONAL]');
console.log(`first search: ${first.ms.toFixed(0)} ms (${provisional ? 'provisional' : 'from the index'}); rg -n ${word}: ${rg.ms.toFixed(0)} ms; ratio ${(first.ms / rg.ms).toFixed(2)} (target ≤ 3)`);
console.log(first.stdout.split('\n').slice(0, 5).join('\n'));
const started = Date.now();
for (;;) {
  await new Promise((r) => setTimeout(r, 500));
  if (existsSync(indexPath) && !new WriterLock(indexPath).isHeld()) {
    const status = run('node', [CLI, 'status', root, '--index-path', indexPath, '--json']);
    if (status.code === 0 && JSON.parse(status.stdout).indexedAt) break;
  }
  if (Date.now() - started > 30 * 60_000) throw new Error('background index did not finish in 30 min');
}
console.log(`background index finished about ${((Date.now() - started + first.ms) / 1000).toFixed(1)} s after the first search started`);
const later = run('node', [CLI, 'search', query, '--repo', root, '--index-path', indexPath]);
console.log(`next search: ${later.ms.toFixed(0)} ms, ${later.stdout.startsWith('[PROVISIONAL]') ? 'still provisional' : 'from the index'}`);
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (opt.keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
