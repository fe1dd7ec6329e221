#!/usr/bin/env node
// Freshness benchmark (issue #15, goal 2): what the check before every answer
// costs when nothing changed, and when one file changed, next to the full
// listing + stat of the tree it replaces, all in one run.
//
//   watcher, no change   (long-lived process: MCP server, web view)   target ≤ 20 ms; timed twice: after the
//                        idle-time scoring warm-up of the state has finished (the check itself), and while it
//                        runs (right after the first check: a call then also waits for the warm-up's current step)
//   git status, no change (a new process each time: the CLI)
//   full listing + stat  (the reference: what every check did before)
//   one-file edit, answered on the next call (watcher and git), checked for correctness
//
// Usage: node bench/freshness-bench.mjs TREE [--runs N] [--keep]
// TREE is copied to a temp folder first (with its .git, so git's view is the same), so it is never edited.
// Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'usage: node bench/freshness-bench.mjs TREE [--runs N] [--keep]';
const { values: opt, positionals } = parseBenchArgs({
  usage: USAGE,
  options: { runs: { type: 'string' }, keep: { type: 'boolean' } },
  minPositionals: 1,
  maxPositionals: 1,
});
const tree = positionals[0];
const runs = wholeNumber(USAGE, 'runs', opt.runs) ?? 20;
const { RepositoryIndex } = await import(pathToFileURL(join(PROJECT, 'dist/index/repository-index.js')).href);
const { WorktreeSource } = await import(pathToFileURL(join(PROJECT, 'dist/index/sources/worktree-source.js')).href);
const work = mkdtempSync(join(tmpdir(), 'reponav-freshness-bench-'));
const root = join(work, 'tree');
const indexPath = join(work, 'index.db');

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const stats = (xs) => `${median(xs).toFixed(1)} ms median, ${Math.max(...xs).toFixed(1)} ms max (n=${xs.length})`;
async function timed(work) {
  const t = now();
  const value = await work();
  return { ms: now() - t, value };
}

console.log(`# freshness-bench: ${resolve(tree)}  runs=${runs}`);
console.log(`cores ${availableParallelism()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
let t = now();
cpSync(resolve(tree), root, { recursive: true });
console.log(`copied in ${((now() - t) / 1000).toFixed(1)} s`);
// The copy has new mtimes, so git's stat cache (.git/index) no longer matches and every `git status`
// would hash every file (the index's git reads never rewrite .git/index); refreshed once, as any
// git command in a real working tree does.
if (existsSync(join(root, '.git'))) spawnSync('git', ['update-index', '-q', '--refresh'], { cwd: root });

// Cold index (untimed for this benchmark's purpose, printed for scale).
const cold = await RepositoryIndex.open(root, { indexPath });
t = now();
const report = await cold.refresh();
cold.close();
console.log(`cold index: ${((now() - t) / 1000).toFixed(1)} s, ${report.listed} files indexed`);

// Reference: the full listing + stat every check did before.
const plain = await WorktreeSource.open(root, { useGit: false });
await plain.list();
const listing = [];
for (let i = 0; i < Math.min(runs, 10); i++) listing.push((await timed(() => plain.list())).ms);

// git: a new process's check (no watcher), no change.
const viaGit = await RepositoryIndex.open(root, { indexPath });
await viaGit.refresh();
const gitNoChange = [];
for (let i = 0; i < Math.min(runs, 10); i++) gitNoChange.push((await timed(() => viaGit.refresh())).ms);
viaGit.close();

// Watcher: a long-lived process.
const watched = await RepositoryIndex.open(root, { indexPath, watch: true });
const first = await timed(() => watched.refresh());
const duringWarmUp = [];
for (let i = 0; i < runs; i++) duringWarmUp.push((await timed(() => watched.refresh())).ms);
await watched.warmScoring();
const watchNoChange = [];
for (let i = 0; i < runs; i++) watchNoChange.push((await timed(() => watched.refresh())).ms);

// One-file edits, answered on the next call; the answer is checked.
const target = (await plain.list()).files.filter((f) => /\.(py|ts|js|go|rs|java)$/.test(f.path)).sort((a, b) => a.size - b.size)[0];
if (!target) throw new Error('no source file to edit');
const original = readFileSync(join(root, target.path), 'utf8');
const edit = (i) => writeFileSync(join(root, target.path), `${original}\n// freshness-bench edit ${i}\n`);
const watchEdit = [];
let wrong = 0;
for (let i = 0; i < 5; i++) {
  edit(i);
  watchEdit.push((await timed(() => watched.refresh())).ms);
  if (!watched.store.fileText(target.path)?.includes(`freshness-bench edit ${i}`)) wrong++;
}
watched.close();
const gitEdit = [];
for (let i = 5; i < 10; i++) {
  edit(i);
  const repo = await RepositoryIndex.open(root, { indexPath });
  gitEdit.push((await timed(() => repo.refresh())).ms);
  if (!repo.store.fileText(target.path)?.includes(`freshness-bench edit ${i}`)) wrong++;
  repo.close();
}
writeFileSync(join(root, target.path), original);

console.log(`\nfiles listed: ${report.listed}; edited file: ${target.path}\n`);
console.log('| check | time |');
console.log('|---|---|');
console.log(`| full listing + stat (reference) | ${stats(listing)} |`);
console.log(`| git status, no change (new-process path) | ${stats(gitNoChange)} |`);
console.log(`| watcher, first check (sets the watches; full listing) | ${first.ms.toFixed(1)} ms |`);
console.log(`| watcher, no change (after the idle-time warm-up) | ${stats(watchNoChange)} |`);
console.log(`| watcher, no change, while the idle-time warm-up runs | ${stats(duringWarmUp)} |`);
console.log(`| watcher, one-file edit on the next call | ${stats(watchEdit)} |`);
console.log(`| git, one-file edit, fresh RepositoryIndex each time | ${stats(gitEdit)} |`);
const m = median(watchNoChange);
console.log(`\nwatcher no-change median ${m.toFixed(1)} ms: ≤ 20 ms ${m <= 20 ? 'met' : 'missed'}; ${(median(listing) / m).toFixed(0)}× below the full listing`);
console.log(`git no-change / full listing: ${(median(gitNoChange) / median(listing)).toFixed(2)}`);
console.log(`edits answered wrongly: ${wrong} of 10`);
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (opt.keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
