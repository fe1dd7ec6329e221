#!/usr/bin/env node
// Indexing benchmark: cold index time, throughput and peak RSS of the built CLI,
// the time of a one-file incremental update, and (when `ctags` is on PATH) the
// ratio of our cold index time to `ctags -R` (and to `cindex`, the trigram index of Debian's codesearch)
// over the same files, and the index's size on disk against the bytes indexed, measured in
// the same run.
//
// Usage:
//   node bench/index-bench.mjs TREE                                  working tree
//   node bench/index-bench.mjs GITDIR --commit REV [--commit2 REV2]  one commit (bare mirrors work)
// Options: --keep (leave the temp folder), --workers N (parse worker threads of the cold index,
// passed to `reponav index --workers`, and threads of the parse+query floor; default: the indexer's),
// --runs N (N more rounds of cold index into a fresh index + floor, alternated; prints medians),
// --previous DIST (another build's dist/ folder, kept inside a checkout with its node_modules and
// queries/: its cold index joins every round, and this build ÷ previous CPU, wall and RSS are printed)
//
// Needs `npm run build` first. Everything is written under a fresh temp folder
// (REPONAV_CACHE_DIR points there too); the tree itself is never modified.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { parseBenchArgs } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PROJECT, 'dist/cli/main.js');

const USAGE = `usage: node bench/index-bench.mjs TREE_OR_GITDIR [--commit REV [--commit2 REV2]] [--workers N] [--runs N] [--previous DIST] [--keep]
(see the header of bench/index-bench.mjs for what each option does)`;
const s = { type: 'string' };
const { values: opt, positionals: args } = parseBenchArgs({
  usage: USAGE,
  options: { commit: s, commit2: s, workers: s, runs: s, previous: s, keep: { type: 'boolean' } },
  minPositionals: 1,
  maxPositionals: 1,
});
const flag = (name) => opt[name.slice(2)];
const keep = opt.keep === true;
const commit = flag('--commit');
const commit2 = flag('--commit2');
const workersFlag = flag('--workers');
const runsFlag = flag('--runs');
const previousFlag = flag('--previous');
const PREVIOUS_CLI = previousFlag ? join(resolve(previousFlag), 'cli/main.js') : null;
if (PREVIOUS_CLI && !existsSync(PREVIOUS_CLI)) {
  console.error(`--previous: ${PREVIOUS_CLI} does not exist`);
  process.exit(2);
}
if (runsFlag !== undefined && !/^\d+$/.test(runsFlag)) {
  console.error('--runs takes a whole number');
  process.exit(2);
}
// Rounds after the first cold index: each a cold index into a fresh index (and the previous build's), then the floor.
const rounds = runsFlag !== undefined ? Number(runsFlag) : PREVIOUS_CLI ? 3 : 0;
if (workersFlag !== undefined && !/^\d+$/.test(workersFlag)) {
  console.error('--workers takes a whole number');
  process.exit(2);
}
const target = args[0];
if (!target || args.length > 1) {
  console.error('usage: node bench/index-bench.mjs TREE_OR_GITDIR [--commit REV [--commit2 REV2]] [--workers N] [--runs N] [--previous DIST] [--keep]');
  process.exit(2);
}
if (!existsSync(CLI)) {
  console.error(`${CLI} is missing: run \`npm run build\` first`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'reponav-index-bench-'));
const cacheDir = join(work, 'cache');
const indexPath = join(work, 'index', 'bench.db');
const env = { ...process.env, REPONAV_CACHE_DIR: cacheDir };
const hasTimeV = spawnSync('/usr/bin/time', ['-v', 'true'], { encoding: 'utf8' }).status === 0;
const ctagsVersion = (() => {
  const r = spawnSync('ctags', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0].replace(/,.*$/, '') : null;
})();

function git(...gitArgs) {
  const r = spawnSync('git', gitArgs, { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${gitArgs.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Runs the CLI (`cli`, default this build's) once into `into`; returns wall ms, CPU ms, peak RSS (MB) and parsed JSON stdout. */
function runIndex(cliArgs, cli = CLI, into = indexPath) {
  const argv = [cli, 'index', ...cliArgs, '--index-path', into, '--json', '-q', ...(workersFlag !== undefined ? ['--workers', workersFlag] : [])];
  const started = process.hrtime.bigint();
  let result;
  if (hasTimeV) {
    result = spawnSync('/usr/bin/time', ['-v', process.execPath, ...argv], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  } else {
    // Fallback: report maxRSS from inside the child at exit.
    const wrapper = `process.on('exit',()=>process.stderr.write('Maximum resident set size (kbytes): '+process.resourceUsage().maxRSS+'\\n'));process.argv=[process.argv[0],...${JSON.stringify(argv)}];await import(${JSON.stringify(pathToFileURL(cli).href)});`;
    result = spawnSync(process.execPath, ['--input-type=module', '-e', wrapper], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  }
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`reponav index failed (${result.status}):\n${result.stderr}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  const seconds = (label) => Number((new RegExp(`${label} time \\(seconds\\): ([\\d.]+)`).exec(result.stderr) ?? [])[1]);
  const cpuMs = (seconds('User') + seconds('System')) * 1000;
  return { wallMs, cpuMs, rssMb: rss ? Number(rss[1]) / 1024 : NaN, report: JSON.parse(result.stdout) };
}

function timeCommand(command, commandArgs, cwd) {
  const started = process.hrtime.bigint();
  const r = spawnSync(command, commandArgs, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  return ms;
}

function indexedBytes() {
  const db = new Database(indexPath, { readonly: true });
  try {
    return db.prepare('SELECT COUNT(*) AS files, COALESCE(SUM(size), 0) AS bytes FROM files').get();
  } finally {
    db.close();
  }
}

/** Picks a mid-sized parsed source file to edit (deterministic). */
function pickFileToEdit() {
  const db = new Database(indexPath, { readonly: true });
  try {
    const rows = db.prepare("SELECT path, size FROM files WHERE language <> 'unknown' AND status = 'ok' ORDER BY size, path").all();
    return rows[Math.floor(rows.length / 2)]?.path;
  } finally {
    db.close();
  }
}

/** Tree-sitter parse + query alone over `paths` on `workerCount` threads: wall and CPU ms (this process, all threads). */
async function parseFloor(paths, workerCount) {
  // The same wasm tier-up choice as the indexer's for a job of this size (src/parse/wasm-tiering.ts).
  const { prepareWasmTiering } = await import(pathToFileURL(join(PROJECT, 'dist/parse/wasm-tiering.js')).href);
  prepareWasmTiering(paths.length);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: workerCount }, (_, k) => new Promise((resolvePromise, reject) => {
      const worker = new Worker(new URL('./parse-floor-worker.mjs', import.meta.url), {
        workerData: { distDir: pathToFileURL(join(PROJECT, 'dist')).href, files: paths.filter((_, i) => i % workerCount === k) },
      });
      worker.once('message', () => worker.terminate().then(resolvePromise));
      worker.once('error', reject);
    })),
  );
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: (used.user + used.system) / 1000 };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const rows = [];
const row = (label, value, note = '') => rows.push([label, value, note]);
const fmtMs = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

try {
  let tree; // a plain folder with the same files, for ctags and for the working-tree update
  let cliTarget;
  if (commit) {
    const gitDir = git('-C', target, 'rev-parse', '--absolute-git-dir');
    const full = git('--git-dir', gitDir, 'rev-parse', '--verify', `${commit}^{commit}`);
    cliTarget = [gitDir, '--commit', full];
    tree = join(work, 'extract');
    mkdirSync(tree);
    const extract = spawnSync('sh', ['-c', 'git --git-dir "$1" archive --format=tar "$2" | tar -x -C "$3"', 'sh', gitDir, full, tree], { encoding: 'utf8' });
    if (extract.status !== 0) throw new Error(`git archive | tar failed: ${extract.stderr}`);
    row('target', `${gitDir} @ ${full.slice(0, 12)}`, 'commit mode (ls-tree + cat-file)');
  } else {
    tree = join(work, 'tree');
    cpSync(resolve(target), tree, { recursive: true, filter: (src) => !/\/\.git$/.test(src) });
    cliTarget = [tree];
    row('target', resolve(target), 'working tree (copied to a temp folder)');
  }

  // Cold index.
  const cold = runIndex(cliTarget);
  const { files, bytes } = indexedBytes();
  const coldSeconds = cold.report.durationMs / 1000;
  row('files indexed', String(files), `${cold.report.parsed} parsed, ${cold.report.partial} partial; skipped ${JSON.stringify(cold.report.skipped)}`);
  row('bytes indexed', `${(bytes / 1e6).toFixed(2)} MB`);
  row('cold index (CLI wall)', fmtMs(cold.wallMs), 'process start to exit');
  row('cold index (in-process)', fmtMs(cold.report.durationMs), 'the report\'s durationMs');
  row('throughput', `${(files / coldSeconds).toFixed(0)} files/s, ${(bytes / 1e6 / coldSeconds).toFixed(2)} MB/s`, 'in-process time');
  row('peak RSS (cold)', `${cold.rssMb.toFixed(0)} MB`, hasTimeV ? '/usr/bin/time -v (whole process, workers included)' : 'resourceUsage().maxRSS');
  // On disk, against the bytes indexed, with what each table and index holds (SQLite's dbstat).
  {
    const db = new Database(indexPath, { readonly: true });
    try {
      const parts = db.prepare('SELECT name, SUM(pgsize) AS size FROM dbstat GROUP BY name ORDER BY size DESC').all();
      const total = parts.reduce((sum, part) => sum + part.size, 0);
      const top = parts.slice(0, 6).map((part) => `${part.name} ${(part.size / 1e6).toFixed(1)}`).join(', ');
      row('index on disk', `${(total / 1e6).toFixed(1)} MB`, `${(total / bytes).toFixed(2)}x the bytes indexed; MB by table: ${top}`);
    } catch (error) {
      row('index on disk', 'n/a', `dbstat: ${error.message}`);
    } finally {
      db.close();
    }
  }

  // No-op refresh.
  const noop = runIndex(cliTarget);
  row('no-change refresh (CLI wall)', fmtMs(noop.wallMs), `in-process ${fmtMs(noop.report.durationMs)}, ${noop.report.unchanged} unchanged`);

  // One-file update.
  if (commit && commit2) {
    const full2 = git('--git-dir', cliTarget[0], 'rev-parse', '--verify', `${commit2}^{commit}`);
    const differing = git('--git-dir', cliTarget[0], 'diff', '--name-only', cliTarget[2], full2).split('\n').filter(Boolean).length;
    const update = runIndex([cliTarget[0], '--commit', full2]);
    row(
      'switch commit (CLI wall)',
      fmtMs(update.wallMs),
      `to ${full2.slice(0, 12)}: ${differing} file(s) differ, ${update.report.parsed} parsed, ${update.report.reused} reused, ${update.report.deleted} removed`,
    );
    row('switch commit (in-process)', fmtMs(update.report.durationMs), 'the report\'s durationMs');
    row('peak RSS (switch)', `${update.rssMb.toFixed(0)} MB`);
  } else if (!commit) {
    const edited = pickFileToEdit();
    const file = join(tree, edited);
    const bump = (seconds) => {
      const when = new Date(Date.now() + seconds * 1000);
      utimesSync(file, when, when);
    };
    // A comment line in the file's own syntax: the file stays a clean parse.
    const comment = /\.(py|rb|sh|bash|pl|r|toml|ya?ml)$/i.test(edited) ? '#' : '//';
    const edit = (n) => writeFileSync(file, readFileSync(file, 'utf8') + `\n${comment} reponav bench edit ${n}\n`);
    edit(0);
    bump(5);
    const update = runIndex(cliTarget);
    row('one-file update (CLI wall)', fmtMs(update.wallMs), `${edited}: ${update.report.parsed} parsed, ${update.report.unchanged} unchanged`);
    row('one-file update (in-process)', fmtMs(update.report.durationMs), 'the report\'s durationMs');

    // The same in a long-lived process (an MCP server or agent keeps the index open): median of 5.
    const { RepositoryIndex } = await import(pathToFileURL(join(PROJECT, 'dist/index/repository-index.js')).href);
    const repository = await RepositoryIndex.open(tree, { indexPath });
    const times = [];
    const noChange = [];
    let first = NaN;
    try {
      await repository.refresh();
      for (let i = 0; i < 5; i++) {
        const started = process.hrtime.bigint();
        const report = await repository.refresh();
        noChange.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (report.parsed !== 0) throw new Error(`expected 0 parsed, got ${report.parsed}`);
      }
      for (let i = 0; i < 6; i++) {
        edit(i + 1);
        bump(10 + i);
        const started = process.hrtime.bigint();
        const report = await repository.refresh();
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (i === 0) first = ms; // loads the grammar
        else times.push(ms);
        if (report.parsed !== 1) throw new Error(`expected 1 parsed, got ${report.parsed}`);
      }
    } finally {
      repository.close();
    }
    times.sort((a, b) => a - b);
    noChange.sort((a, b) => a - b);
    row('no-change refresh (warm process)', fmtMs(noChange[2]), `median of 5 refresh() calls with nothing changed (listing + stat), min ${fmtMs(noChange[0])} max ${fmtMs(noChange[4])}`);
    row('one-file update (new process)', fmtMs(first), 'first refresh() after open: includes the grammar load');
    row('one-file update (warm process)', fmtMs(times[2]), `median of 5 more refresh() calls, min ${fmtMs(times[0])} max ${fmtMs(times[4])}`);
  } else {
    row('one-file update', 'n/a', 'give --commit2 REV2 to time a commit switch');
  }

  // The floor: tree-sitter parse + query alone over the same parsed files, on as
  // many threads as the indexer uses. Whatever the indexer spends above this is
  // symbol building, chunking, tokenizing and SQLite.
  const parsedPaths = (() => {
    const db = new Database(indexPath, { readonly: true });
    try {
      return db.prepare("SELECT path FROM files WHERE language <> 'unknown' ORDER BY path").all().map((r) => join(tree, r.path));
    } finally {
      db.close();
    }
  })();
  // The indexer's default (one per core, at most 4) unless --workers says otherwise; 0 (in-process) runs on one thread.
  const workerCount = workersFlag !== undefined ? Math.max(1, Number(workersFlag)) : Math.max(1, Math.min(4, availableParallelism()));
  const { ms: floorMs, cpuMs: floorCpuMs } = await parseFloor(parsedPaths, workerCount);
  row('parse+query floor', fmtMs(floorMs), `tree-sitter alone on ${workerCount} worker thread(s), ${parsedPaths.length} files, in-process; CPU ${fmtMs(floorCpuMs)}`);
  // Wall moves with the machine's load between the two runs; CPU time (all threads) much less.
  row(
    'ratio cold / floor',
    `${(cold.report.durationMs / floorMs).toFixed(2)}x`,
    `in-process wall (target ≤ 1.3x); CPU ${Number.isFinite(cold.cpuMs) ? `${(cold.cpuMs / floorCpuMs).toFixed(2)}x (whole process ${fmtMs(cold.cpuMs)})` : 'n/a (needs /usr/bin/time)'}`,
  );

  // More rounds: the machine's load moves between runs, so each round pairs a cold index (and the
  // previous build's, the two in alternating order) with a floor run right after, and the medians of
  // the per-round ratios are printed.
  if (rounds > 0) {
    const perRound = { floor: [], floorCpu: [], cold: [], coldCpu: [], rss: [], prev: [], prevCpu: [], prevRss: [] };
    for (let round = 0; round < rounds; round++) {
      const fresh = (name) => join(work, `round-${round}`, name, 'bench.db');
      const builds = [['this', CLI], ...(PREVIOUS_CLI ? [['prev', PREVIOUS_CLI]] : [])];
      if (round % 2 === 1) builds.reverse();
      for (const [name, cli] of builds) {
        const run = runIndex(cliTarget, cli, fresh(name));
        perRound[name === 'this' ? 'cold' : 'prev'].push(run.report.durationMs);
        perRound[name === 'this' ? 'coldCpu' : 'prevCpu'].push(run.cpuMs);
        perRound[name === 'this' ? 'rss' : 'prevRss'].push(run.rssMb);
        rmSync(join(work, `round-${round}`, name), { recursive: true, force: true });
      }
      const floor = await parseFloor(parsedPaths, workerCount);
      perRound.floor.push(floor.ms);
      perRound.floorCpu.push(floor.cpuMs);
    }
    const ratios = (a, b) => perRound[a].map((v, i) => v / perRound[b][i]);
    const spread = (values) => `min ${Math.min(...values).toFixed(2)}x max ${Math.max(...values).toFixed(2)}x`;
    row(`ratio cold / floor, ${rounds} rounds`, `${median(ratios('cold', 'floor')).toFixed(2)}x`, `median of per-round in-process wall ratios (${spread(ratios('cold', 'floor'))}); CPU ${median(ratios('coldCpu', 'floorCpu')).toFixed(2)}x`);
    row(`cold index, ${rounds} rounds`, fmtMs(median(perRound.cold)), `median in-process; CPU ${fmtMs(median(perRound.coldCpu))}, peak RSS ${median(perRound.rss).toFixed(0)} MB (max ${Math.max(...perRound.rss).toFixed(0)})`);
    if (PREVIOUS_CLI) {
      row('previous build cold index', fmtMs(median(perRound.prev)), `median in-process; CPU ${fmtMs(median(perRound.prevCpu))}, peak RSS ${median(perRound.prevRss).toFixed(0)} MB (max ${Math.max(...perRound.prevRss).toFixed(0)})`);
      row('this ÷ previous, CPU', `${median(ratios('coldCpu', 'prevCpu')).toFixed(2)}x`, `median of per-round ratios (${spread(ratios('coldCpu', 'prevCpu'))}); in-process wall ${median(ratios('cold', 'prev')).toFixed(2)}x`);
      row('this ÷ previous, peak RSS', `${median(ratios('rss', 'prevRss')).toFixed(2)}x`, spread(ratios('rss', 'prevRss')));
    }
  }

  // ctags over the same files.
  if (ctagsVersion) {
    const ctagsMs = timeCommand('ctags', ['-R', '-f', join(work, 'tags'), '.'], tree);
    const tags = readFileSync(join(work, 'tags'), 'utf8').split('\n').filter((l) => l && !l.startsWith('!_')).length;
    row('ctags -R', fmtMs(ctagsMs), `${ctagsVersion}, ${tags} tags, same files extracted to a folder`);
    row('ratio cold / ctags', `${(cold.wallMs / ctagsMs).toFixed(2)}x`, `in-process: ${(cold.report.durationMs / ctagsMs).toFixed(2)}x (target ≤ 5x)`);
    row('ratio floor / ctags', `${(floorMs / ctagsMs).toFixed(2)}x`, 'tree-sitter parse + query alone, nothing stored');
  } else {
    row('ctags -R', 'n/a', 'ctags not on PATH (apt-get install -y universal-ctags)');
  }
  // Russ Cox's trigram index (Debian's codesearch): a reference a user knows; it parses nothing, so it is no target.
  if (spawnSync('cindex', ['-help'], { encoding: 'utf8' }).error === undefined) {
    const csIndex = join(work, 'csearchindex');
    const started = process.hrtime.bigint();
    const r = spawnSync('cindex', [tree], { env: { ...process.env, CSEARCHINDEX: csIndex }, encoding: 'utf8', maxBuffer: 1 << 28 });
    const cindexMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 0) row('cindex', 'n/a', `cindex failed: ${r.stderr.trim().split('\n').pop()}`);
    else {
      row('cindex', fmtMs(cindexMs), `trigram index of the same folder, ${(statSync(csIndex).size / 1e6).toFixed(1)} MB on disk`);
      row('ratio cold / cindex', `${(cold.wallMs / cindexMs).toFixed(2)}x`, `in-process: ${(cold.report.durationMs / cindexMs).toFixed(2)}x (a reference, not a target)`);
    }
  } else {
    row('cindex', 'n/a', 'cindex not on PATH (apt-get install -y codesearch)');
  }

  const width = Math.max(...rows.map((r) => r[0].length));
  const valueWidth = Math.max(...rows.map((r) => r[1].length));
  const load = loadavg().map((n) => n.toFixed(1)).join(' ');
  console.log(`reponav index benchmark  (node ${process.version}, ${availableParallelism()} cores, load ${load}, ${new Date().toISOString()})`);
  for (const [label, value, note] of rows) console.log(`  ${label.padEnd(width)}  ${value.padStart(valueWidth)}  ${note}`);
  console.log('  targets: cold ≤ 5x ctags, one-file update ≤ 100 ms, peak RSS ≤ 400 MB');
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
