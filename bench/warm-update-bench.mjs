#!/usr/bin/env node
// Warm one-file update: in a long-lived process (MCP server, web view) whose
// index is warm, one file is edited and the next call refreshes, then
// searches (a query of words from the edited file); printed: the wall and
// CPU time until the refresh's caller resumes, and until the search's answer, and the CPU of the idle-time warm-up that follows,
// median over the edits, for this build and, with --previous DIST, for an
// earlier build in the same run, edits interleaved, with the ratios. Between edits each build's idle-time warm-up finishes, as it does in
// an agent's pauses. Every refresh is checked to hold the edit, and every warm answer against a new
// connection's answer to the same query (which reads the index afresh): the count that differ is printed.
//
// Usage: node bench/warm-update-bench.mjs TREE [--previous DIST] [--edits N] [--keep]
// TREE is copied to a temp folder first, so it is never edited. Needs `npm run build`.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'usage: node bench/warm-update-bench.mjs TREE [--previous DIST] [--edits N] [--keep]';
const { values: opt, positionals } = parseBenchArgs({
  usage: USAGE,
  options: { previous: { type: 'string' }, edits: { type: 'string' }, keep: { type: 'boolean' } },
  minPositionals: 1,
  maxPositionals: 1,
});
const edits = wholeNumber(USAGE, 'edits', opt.edits) ?? 10;
const builds = [{ label: 'this build', dist: join(PROJECT, 'dist') }, ...(opt.previous ? [{ label: `previous (${opt.previous})`, dist: resolve(opt.previous) }] : [])];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

console.log(`# warm-update-bench: ${resolve(positionals[0])}  edits=${edits}`);
console.log(`cores ${availableParallelism()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const work = mkdtempSync(join(tmpdir(), 'reponav-warm-update-'));
const root = join(work, 'tree');
cpSync(resolve(positionals[0]), root, { recursive: true });

for (const [i, build] of builds.entries()) {
  const { RepositoryIndex } = await import(pathToFileURL(join(build.dist, 'index/repository-index.js')).href);
  build.search = (await import(pathToFileURL(join(build.dist, 'retrieve/search-repository.js')).href)).searchRepository;
  build.RepositoryIndex = RepositoryIndex;
  const indexPath = join(work, `index-${i}.db`);
  build.indexPath = indexPath;
  const cold = await RepositoryIndex.open(root, { indexPath });
  const report = await cold.refresh();
  cold.close();
  build.index = await RepositoryIndex.open(root, { indexPath, watch: true });
  await build.index.refresh();
  await build.index.warmScoring();
  build.wall = [];
  build.cpu = [];
  build.callWall = [];
  build.callCpu = [];
  build.warmCpu = [];
  console.log(`${build.label}: ${report.listed} files indexed`);
}

// The middle source file in path order: an ordinary edit, neither the tree's first nor its largest file.
const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .map((p) => p.split('\\').join('/'))
  .filter((p) => !p.startsWith('.git/') && /\.(py|ts|js|go|rs|java)$/.test(p) && statSync(join(root, p)).size > 200)
  .sort();
const target = sources[Math.floor(sources.length / 2)];
if (!target) throw new Error('no source file to edit');
const original = readFileSync(join(root, target), 'utf8');
const query = [...new Set(original.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? [])].slice(0, 8).join(' ');
let wrong = 0;
let differing = 0;
for (let e = 0; e < edits; e++) {
  for (const build of e % 2 ? [...builds].reverse() : builds) {
    const marker = `warm_update_bench_${e}_${builds.indexOf(build)}`;
    writeFileSync(join(root, target), `${original}\n# ${marker}\n`);
    await sleep(200); // the watcher's event arrives
    const t = performance.now();
    const c = process.cpuUsage();
    await build.index.refresh();
    const d = process.cpuUsage(c);
    build.wall.push(performance.now() - t);
    build.cpu.push((d.user + d.system) / 1000);
    const answer = await build.search(build.index.store, query);
    const d2 = process.cpuUsage(c);
    build.callWall.push(performance.now() - t);
    build.callCpu.push((d2.user + d2.system) / 1000);
    if (!build.index.store.fileText(target)?.includes(marker)) wrong++;
    // The warm answer (over what the process carried across the edit) against a new connection's, which reads everything afresh.
    const fresh = await build.RepositoryIndex.open(root, { indexPath: build.indexPath, readonly: true });
    try {
      if (JSON.stringify(await build.search(fresh.store, query)) !== JSON.stringify(answer)) differing++;
    } finally {
      fresh.close();
    }
    // The idle time between two calls: the warm-up of the new state finishes (its CPU is idle time's, printed apart).
    const w = process.cpuUsage();
    await build.index.warmScoring();
    const dw = process.cpuUsage(w);
    build.warmCpu.push((dw.user + dw.system) / 1000);
  }
}
writeFileSync(join(root, target), original);
for (const build of builds) build.index.close();

console.log(`\nedited file: ${target}; query: ${query}\n`);
console.log('| build | refresh wall | refresh CPU | refresh + search wall | refresh + search CPU | idle warm-up after it, CPU |');
console.log('|---|---|---|---|---|---|');
for (const b of builds) console.log(`| ${b.label} | ${median(b.wall).toFixed(1)} ms | ${median(b.cpu).toFixed(1)} ms | ${median(b.callWall).toFixed(1)} ms | ${median(b.callCpu).toFixed(1)} ms | ${median(b.warmCpu).toFixed(1)} ms |`);
if (builds.length === 2) {
  const [now, before] = builds;
  const ratio = (key) => (median(now[key]) / median(before[key])).toFixed(2);
  console.log(`\nthis ÷ previous (medians): refresh wall ${ratio('wall')}, CPU ${ratio('cpu')}; refresh + search wall ${ratio('callWall')}, CPU ${ratio('callCpu')}; idle warm-up CPU ${ratio('warmCpu')}`);
}
console.log(`edits answered wrongly: ${wrong} of ${edits * builds.length}`);
console.log(`warm answers differing from a fresh connection's: ${differing} of ${edits * builds.length}`);
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (opt.keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
