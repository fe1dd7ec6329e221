#!/usr/bin/env node
// Scaling benchmark (issue #15, goal 4): how cold-index time and peak memory grow
// with the number of files, on synthetic trees up to 50,000 files, and what
// parse workers buy (`--workers 2` ÷ `--workers 0` wall time, target ≤ 0.6 on
// a quiet machine), all in one run.
//
//   curve:    for each size N, a synthetic Python tree of N files is generated
//             (deterministic: same N, same bytes), `git init`-ed, and indexed
//             cold by the built CLI under /usr/bin/time -v. Printed per size:
//             wall, CPU, in-process time, ms per file, peak RSS, and the
//             growth between consecutive sizes (wall, CPU and memory ratio ÷
//             file ratio: ≤ 1 is linear or better; on a shared machine read CPU,
//             wall moves with the load).
//   search:   after each cold index, a separate process opens that index, runs the
//             idle-time scoring warm-up an MCP server runs, and searches 21
//             synthetic issue-length texts (~120 words each, drawn from the tree's
//             vocabulary and English filler, seeded) once each, as an agent pasting
//             an issue would: the first text is left out (JIT, caches), the other
//             20 are first sights; printed: their p50 / p95 wall, CPU p95, and the p95's
//             growth ÷ file growth (bench/scale-search.mjs). With --previous DIST,
//             another build's search runs on the same index in the same way (its own
//             process, the two builds alternated --search-runs times; medians of
//             each build's p50 / p95 / CPU p95), and the ratios are printed.
//   workers:  the smallest size (or --workers-tree TREE) indexed cold with
//             `--workers 0` and `--workers 2`, interleaved --runs times; the
//             ratio of the wall medians.
//
// The synthetic files are ordinary Python modules (classes, methods, functions,
// docstrings, imports of sibling modules) of 1–8 KB from a seeded generator, so
// every stage runs (parse, symbols, chunks, FTS rows, import edges); the
// vocabulary grows with the tree like a real one's (identifiers are drawn from
// a pool that grows with N). Not a substitute for real trees: their large
// files weigh more (see index-bench.mjs).
//
// Usage: node bench/scale-bench.mjs [--sizes 1000,5000,10000,25000,50000] [--runs N]
//                                   [--workers-tree TREE] [--no-workers] [--no-search] [--keep]
//                                   [--previous DIST] [--search-runs N] [--work DIR]
// --work DIR keeps the trees and their indexes in DIR and reuses them on the next run
// (a size whose tree and index are there is not generated or indexed again: its
// index columns are then empty).
// Needs `npm run build`, git, and /usr/bin/time (for peak RSS and CPU).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PROJECT, 'dist/cli/main.js');
const USAGE = `usage: node bench/scale-bench.mjs [--sizes 1000,5000,10000,25000,50000] [--runs N] [--workers-tree TREE] [--no-workers] [--no-search] [--keep]
                                  [--previous DIST] [--search-runs N] [--work DIR]
needs \`npm run build\` (dist/cli/main.js), git and /usr/bin/time`;
const s = { type: 'string' };
const { values: opt } = parseBenchArgs({
  usage: USAGE,
  options: {
    sizes: s,
    runs: s,
    'workers-tree': s,
    'no-workers': { type: 'boolean' },
    'no-search': { type: 'boolean' },
    keep: { type: 'boolean' },
    previous: s,
    'search-runs': s,
    work: s,
  },
});
const option = (name, fallback) => opt[name.slice(2)] ?? fallback;
const sizes = option('--sizes', '1000,5000,10000,25000,50000').split(',').map(Number).sort((a, b) => a - b);
const runs = wholeNumber(USAGE, 'runs', option('--runs', '3'));
const workersTree = option('--workers-tree', null);
const keep = opt.keep === true;
const search = opt['no-search'] !== true;
const previousDist = opt.previous ? resolve(opt.previous) : null;
const searchRuns = wholeNumber(USAGE, 'search-runs', option('--search-runs', previousDist ? '3' : '1'));
if (sizes.some((n) => !Number.isInteger(n) || n < 10) || !existsSync(CLI) || !existsSync('/usr/bin/time') || searchRuns < 1) {
  console.error(USAGE);
  process.exit(2);
}
if (previousDist && !existsSync(join(previousDist, 'retrieve/search-repository.js'))) {
  console.error(`--previous ${previousDist}: no retrieve/search-repository.js there (a built dist/ folder is needed)\n${USAGE}`);
  process.exit(2);
}
const reuse = opt.work ? resolve(opt.work) : null;
if (reuse) mkdirSync(reuse, { recursive: true });
const work = reuse ?? mkdtempSync(join(tmpdir(), 'reponav-scale-bench-'));
const env = { ...process.env, REPONAV_CACHE_DIR: join(work, 'cache') };

/** A small seeded PRNG (mulberry32): the same N always gives the same tree. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tor', 'vas', 'pe', 'dun', 'shi', 'gal', 'bro', 'nex', 'qui', 'zed', 'ul', 'fa', 'cor', 'tin'];
const VERBS = ['load', 'parse', 'render', 'fetch', 'update', 'build', 'check', 'merge', 'resolve', 'encode', 'decode', 'split', 'apply'];

/** Writes a synthetic Python tree of `count` files under `root` (100 files a package). */
function generateTree(root, count) {
  const rand = random(count);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  // The identifier pool grows with the tree, as a real project's vocabulary does (about √N·40 words).
  const words = Array.from({ length: Math.max(200, Math.round(Math.sqrt(count) * 40)) }, () =>
    Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(SYLLABLES)).join(''),
  );
  const name = () => pick(words);
  const modulePath = (i) => ({ pkg: `pkg${String(Math.floor(i / 100)).padStart(3, '0')}`, mod: `mod${String(i % 100).padStart(2, '0')}` });
  for (let i = 0; i < count; i++) {
    const { pkg, mod } = modulePath(i);
    const lines = [`"""${name()} ${name()}: ${pick(VERBS)}s ${name()} records for the ${name()} service."""`, 'import os', 'import re'];
    for (let k = 0; k < 3; k++) {
      const other = modulePath(Math.floor(rand() * count));
      lines.push(`from ${other.pkg}.${other.mod} import ${pick(VERBS)}_${name()}`);
    }
    lines.push('');
    const classes = 1 + Math.floor(rand() * 3);
    for (let c = 0; c < classes; c++) {
      const cls = name().replace(/^./, (x) => x.toUpperCase());
      lines.push(`class ${cls}${c}(object):`, `    """A ${name()} that ${pick(VERBS)}s ${name()} values."""`, '');
      const methods = 1 + Math.floor(rand() * 6);
      for (let m = 0; m < methods; m++) {
        const arg = name();
        lines.push(`    def ${pick(VERBS)}_${name()}(self, ${arg}, ${name()}=None):`);
        lines.push(`        """${pick(VERBS)} the ${name()} of ${arg}."""`);
        const body = 2 + Math.floor(rand() * 8);
        for (let b = 0; b < body; b++) lines.push(`        ${name()} = self.${name()}(${arg}, "${name()}") + ${Math.floor(rand() * 1000)}`);
        lines.push(`        return ${arg}`, '');
      }
    }
    const functions = Math.floor(rand() * 4);
    for (let f = 0; f < functions; f++) {
      lines.push(`def ${pick(VERBS)}_${name()}(${name()}, *args):`, `    if ${name()} is None:`, `        raise ValueError("no ${name()} given")`, `    return os.path.join(${name()}, *args)`, '');
    }
    mkdirSync(join(root, pkg), { recursive: true });
    if (i % 100 === 0) writeFileSync(join(root, pkg, '__init__.py'), '');
    writeFileSync(join(root, pkg, `${mod}.py`), lines.join('\n') + '\n');
  }
  const git = (...a) => spawnSync('git', ['-C', root, ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@example.invalid', '-c', 'user.name=bench', 'commit', '-qm', 'synthetic');
  return words;
}

const FILLER = ('when i run the with a given it fails because the value is not what i expected and the error below shows ' +
  'that after upgrading this started happening on every call steps to reproduce expected behaviour actual output traceback ' +
  'most recent call last file line in raise error should instead return').split(' ');

/** Issue-length query texts (~120 words: prose, identifiers of the tree, a short traceback), seeded. */
function issueTexts(words, count) {
  const rand = random(7919);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  return Array.from({ length: count }, () => {
    const out = [];
    for (let w = 0; w < 100; w++) out.push(rand() < 0.3 ? (rand() < 0.5 ? `${pick(VERBS)}_${pick(words)}` : pick(words)) : pick(FILLER));
    for (let f = 0; f < 3; f++) {
      const i = Math.floor(rand() * 100);
      out.push(`\n  File "pkg${String(Math.floor(rand() * 10)).padStart(3, '0')}/mod${String(i).padStart(2, '0')}.py", line ${1 + i}, in ${pick(VERBS)}_${pick(words)}`);
    }
    out.push(`\nValueError: no ${pick(words)} given`);
    return out.join(' ');
  });
}

/** Warm first-sight search of issue-length texts on a built index, in its own process (bench/scale-search.mjs). */
function warmSearchTimes(tree, indexPath, words, dist = null) {
  const queriesFile = join(work, 'queries.json');
  writeFileSync(queriesFile, JSON.stringify(issueTexts(words, 21)));
  const args = [join(PROJECT, 'bench/scale-search.mjs'), tree, indexPath, queriesFile, ...(dist ? ['--dist', dist] : [])];
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`search on ${tree} exited ${r.status}: ${r.stderr.slice(-600)}`);
  const times = JSON.parse(r.stdout.trim().split('\n').pop());
  const at = (xs, p) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  };
  return { p50: at(times.firstSightMs, 50), p95: at(times.firstSightMs, 95), cpuP95: at(times.cpuMs, 95) };
}

/** One cold index by the CLI: wall / CPU / in-process ms, peak RSS MB, files indexed. */
function coldIndex(tree, workers, keepIndex = false, indexPath = join(work, `index-${Date.now()}-${Math.random().toString(36).slice(2)}.db`)) {
  const argv = ['-v', process.execPath, CLI, 'index', tree, '--index-path', indexPath, '--json', '-q', ...(workers === undefined ? [] : ['--workers', String(workers)])];
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', argv, { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`index ${tree} exited ${r.status}: ${r.stderr.slice(-600)}`);
  const field = (label) => Number((r.stderr.match(new RegExp(`${label}: ([\\d.]+)`)) ?? [])[1]);
  const report = JSON.parse(r.stdout);
  if (!keepIndex) removeIndex(indexPath);
  return {
    indexPath,
    wallMs,
    cpuMs: (field('User time \\(seconds\\)') + field('System time \\(seconds\\)')) * 1000,
    inProcessMs: report.durationMs,
    rssMb: field('Maximum resident set size \\(kbytes\\)') / 1024,
    files: report.listed,
  };
}

function removeIndex(indexPath) {
  for (const suffix of ['', '-wal', '-shm', '.lock']) rmSync(indexPath + suffix, { force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f0 = (x) => x.toFixed(0);
const f2 = (x) => x.toFixed(2);

console.log(`# scale-bench  sizes=${sizes.join(',')}  runs=${runs}`);
console.log(`cores ${availableParallelism()}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const searchHead = search ? ' warm issue-length search, first sight p50 / p95 (CPU p95) | p95 growth ÷ file growth |' : '';
console.log(`\n| files | wall | CPU | in-process | ms per file (wall) | peak RSS | wall growth ÷ file growth | CPU growth ÷ file growth | RSS growth ÷ file growth |${searchHead}`);
console.log(`|---|---|---|---|---|---|---|---|---|${search ? '---|---|' : ''}`);
let previous = null;
const trees = new Map();
const previousCells = [];
for (const n of sizes) {
  const tree = join(work, `tree-${n}`);
  const indexPath = join(work, `index-${n}.db`);
  const reused = reuse !== null && existsSync(join(tree, '.git')) && existsSync(indexPath) && existsSync(join(work, `words-${n}.json`));
  let words;
  let m;
  if (reused) {
    words = JSON.parse(readFileSync(join(work, `words-${n}.json`), 'utf8'));
    m = { indexPath, reused: true };
  } else {
    rmSync(tree, { recursive: true, force: true });
    removeIndex(indexPath);
    words = generateTree(tree, n);
    // The word pool the query texts are drawn from, for a reused tree (outside it: the tree stays as generated).
    if (reuse) writeFileSync(join(work, `words-${n}.json`), JSON.stringify(words));
    m = coldIndex(tree, undefined, search || reuse !== null, indexPath);
  }
  trees.set(n, tree);
  if (search) {
    const ours = [];
    const theirs = [];
    for (let r = 0; r < searchRuns; r++) {
      ours.push(warmSearchTimes(tree, m.indexPath, words));
      if (previousDist) theirs.push(warmSearchTimes(tree, m.indexPath, words, previousDist));
    }
    const med = (runs) => ({ p50: median(runs.map((x) => x.p50)), p95: median(runs.map((x) => x.p95)), cpuP95: median(runs.map((x) => x.cpuP95)) });
    m.search = med(ours);
    if (previousDist) m.previousSearch = med(theirs);
    if (!reuse) removeIndex(m.indexPath);
  }
  const growth = previous && !m.reused && !previous.reused ? [m.wallMs / previous.wallMs, m.cpuMs / previous.cpuMs, m.rssMb / previous.rssMb].map((g) => g / (n / previous.n)) : null;
  const searchCells = m.search
    ? ` ${f0(m.search.p50)} / ${f0(m.search.p95)} ms (${f0(m.search.cpuP95)} ms) | ${previous?.search ? f2(m.search.p95 / previous.search.p95 / (n / previous.n)) : ''} |`
    : '';
  const indexCells = m.reused ? '(reused) |  |  |  |  |' : `${f0(m.wallMs / 1000)} s | ${f0(m.cpuMs / 1000)} s | ${f0(m.inProcessMs / 1000)} s | ${f2(m.wallMs / n)} | ${f0(m.rssMb)} MB`;
  console.log(`| ${n} | ${indexCells} | ${growth ? growth.map(f2).join(' | ') : ' |  | '} |${searchCells}`);
  if (m.previousSearch) {
    const o = m.search;
    const p = m.previousSearch;
    const pp = previous?.previousSearch;
    previousCells.push(
      `| ${n} | ${f0(o.p50)} / ${f0(o.p95)} ms (CPU ${f0(o.cpuP95)}) | ${f0(p.p50)} / ${f0(p.p95)} ms (CPU ${f0(p.cpuP95)}) | ${f2(o.cpuP95 / p.cpuP95)} | ` +
        `${previous?.search ? f2(o.cpuP95 / previous.search.cpuP95) : ''} | ${pp ? f2(p.cpuP95 / pp.cpuP95) : ''} |`,
    );
  }
  previous = { n, ...m };
  if (n !== sizes[0] && !keep && !reuse) rmSync(tree, { recursive: true, force: true });
}
if (previousCells.length > 0) {
  console.log(`\nwarm issue-length search, this build beside ${previousDist} on the same indexes (${searchRuns} alternated runs each, medians):`);
  console.log('| files | this build p50 / p95 | previous p50 / p95 | CPU p95 ratio | CPU p95 ÷ previous size (this) | (previous) |');
  console.log('|---|---|---|---|---|---|');
  for (const line of previousCells) console.log(line);
}

if (!opt['no-workers']) {
  const tree = workersTree ? resolve(workersTree) : trees.get(sizes[0]);
  const w0 = [];
  const w2 = [];
  for (let i = 0; i < runs; i++) {
    w0.push(coldIndex(tree, 0));
    w2.push(coldIndex(tree, 2));
  }
  const wall0 = median(w0.map((m) => m.wallMs));
  const wall2 = median(w2.map((m) => m.wallMs));
  console.log(`\nworkers on ${workersTree ? tree : `the ${sizes[0]}-file tree`} (${w0[0].files} files, ${runs} interleaved runs each, wall median):`);
  console.log(`| setting | wall | CPU | peak RSS |\n|---|---|---|---|`);
  console.log(`| --workers 0 | ${f0(wall0)} ms | ${f0(median(w0.map((m) => m.cpuMs)))} ms | ${f0(median(w0.map((m) => m.rssMb)))} MB |`);
  console.log(`| --workers 2 | ${f0(wall2)} ms | ${f0(median(w2.map((m) => m.cpuMs)))} ms | ${f0(median(w2.map((m) => m.rssMb)))} MB |`);
  console.log(`--workers 2 ÷ --workers 0 wall: ${f2(wall2 / wall0)} (target ≤ 0.6 on a quiet machine; on a shared one other processes take the second core)`);
}
console.log(`load average at the end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
if (keep || reuse) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
