#!/usr/bin/env node
// Per-candidate features of the ranking's own signals, for the learned ranker
// (bench/train-ranker.mjs). No new runtime path: every signal is read off
// searchRepository's answers under the existing settings. The default search
// gives the candidates (its first --top files, modules and functions); each
// ABLATION turns one stage of the hand-tuned combination off (BM25 fields,
// title and file-identity fusion, path priors, file-name, path, frame and
// phrase evidence, name, link, class, eponym, member and call evidence, the
// file's weight), and a `plain` search is BM25 alone. Each run contributes two
// features per candidate: its score over that run's best (0 when absent) and
// 1/(1+rank) (0 when absent); so a linear model over them weighs each stage's
// contribution. Static features: test path, stub, path depth, log10 of the
// function's (module's) lines or of the file's symbol count.
//
// --one-pass: instead, one search per instance that returns its own stages'
// values per candidate (searchRepository's `features`, ranking-features.ts:
// the vectors the learned ranker reads at query time), with documentation
// search off (it ranks no code). Records then carry `names` per level.
// --resume: instances already in --out are kept and skipped (a stopped run continues).
//
// Usage:
//   node bench/ranker-features.mjs --instances A.jsonl[,B.jsonl] --repos DIR --index-dir DIR --out FEATURES.jsonl
//        [--only-repos o/n,...] [--per-repo N] [--newest] [--rolling] [--top 30] [--one-pass] [--resume]
// --index-dir as bench/tune-loro.mjs (`owner+name@commit.db` per instance, copied
// from the previous one), or with --rolling one index per repository
// (`owner+name@rolling.db`) moved from commit to commit: little disk, and an
// instance's index is gone once the next one is built.
// --per-repo N: each repository's N instances with the oldest base commits
// (--newest: the newest; close commits make each index update small). Either
// choice reads commit dates only, never the gold.
// On stderr: per instance, the seconds spent indexing and searching (CPU time
// of this process with process.cpuUsage, and wall time), for throughput.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

/**
 * The build's modules, loaded on first use: the scripts that import this one's
 * constants, and its own --help or a bad flag, load none of them.
 */
let built;
async function loadBuild() {
  built ??= {
    ...(await import('../dist/index/repository-index.js')),
    ...(await import('../dist/retrieve/search-repository.js')),
    ...(await import('../dist/retrieve/lexical-retriever.js')),
    ...(await import('../dist/retrieve/path-prior.js')),
    ONE_PASS_NAMES: (await import('../dist/retrieve/ranking-features.js')).FEATURE_NAMES,
    ...(await import('../dist/eval/locbench-instances.js')),
    ...(await import('../dist/eval/repo-lookup.js')),
  };
  return built;
}

/** The runs whose scores are features; the first is the default ranking (its lists are the candidates). */
export const RUNS = [
  ['default', {}],
  ['plain', { queryMode: 'plain' }],
  ['no-file-level', { fileLevel: { weight: 0, titleWeight: 0 } }],
  ['no-title', { fileLevel: { titleWeight: 0 } }],
  ['no-priors', { priors: { test: 1, stub: 1, library: 1 } }],
  ['no-file-name', { evidence: { fileName: { weight: 0 } } }],
  ['no-path-frame', { evidence: { pathMention: 0, frame: 0 } }],
  ['no-phrase', { evidence: { phrase: 0 } }],
  ['body-only', { lexical: { fieldWeights: { path: 0, name: 0, signature: 0, doc: 0, body: 1 } } }],
  ['names-only', { lexical: { fieldWeights: { body: 0, doc: 0 } } }],
  ['no-names', { symbolRanking: { nameWeight: 0 } }],
  ['no-link-class-eponym', { symbolRanking: { linkWeight: 0, classWeight: 0, eponymWeight: 0 } }],
  ['no-neighbours', { symbolRanking: { memberWeight: 0, callWeight: 0 } }],
  ['no-file-weight', { symbolRanking: { fileWeight: 0 } }],
  ['size', { symbolRanking: { sizeWeight: 0.3 } }],
];
/** Static features after the runs' (names for the weights file). */
export const STATIC_FEATURES = ['test', 'stub', 'depth', 'log-size'];
/** Feature names in vector order. */
export const FEATURE_NAMES = [...RUNS.flatMap(([name]) => [`${name}:score`, `${name}:rank`]), ...STATIC_FEATURES];
export const LEVELS = ['file', 'module', 'function'];

const keyOf = (level, item) => (level === 'file' ? item.path : `${item.path}:${item.qualifiedName}`);

/** The three ranked lists of one search answer as candidate keys with scores. */
function listsOf(result) {
  return {
    file: result.files.map((f) => ({ key: keyOf('file', f), score: f.score })),
    module: result.modules.map((m) => ({ key: keyOf('module', m), score: m.score })),
    function: result.functions.map((f) => ({ key: keyOf('function', f), score: f.score })),
  };
}

/** Static features of one candidate key at one level. */
function staticFeatures(store, level, key, symbolCache, isTestPath) {
  const path = level === 'file' ? key : key.slice(0, key.indexOf(':'));
  if (!symbolCache.has(path)) symbolCache.set(path, store.symbolsOf(path));
  const symbols = symbolCache.get(path);
  let size = symbols.length + 1;
  if (level !== 'file') {
    const name = key.slice(key.indexOf(':') + 1);
    const symbol = symbols.find((s) => s.qualifiedName === name);
    size = symbol ? symbol.endLine - symbol.startLine + 1 : 1;
  }
  return [isTestPath(path) ? 1 : 0, /\.pyi$|\.d\.ts$/.test(path) ? 1 : 0, path.split('/').length - 1, Math.log10(size)];
}

/** Every run on one query → per level the default's first `top` candidates and their feature vectors. */
export async function candidateFeatures(store, query, top) {
  const { LexicalMemo, searchWithTuning, isTestPath } = await loadBuild();
  const memo = new LexicalMemo();
  const runs = [];
  for (const [, options] of RUNS) runs.push(listsOf(await searchWithTuning(store, query, { ...options, ranker: 'hand', lexicalMemo: memo })));
  const symbolCache = new Map();
  const out = {};
  for (const level of LEVELS) {
    const candidates = runs[0][level].slice(0, top).map((c) => c.key);
    const perRun = runs.map((lists) => {
      const list = lists[level];
      const best = list[0]?.score || 1;
      return new Map(list.map((c, rank) => [c.key, [c.score / best, 1 / (1 + rank)]]));
    });
    out[level] = {
      keys: candidates,
      x: candidates.map((key) => [...perRun.flatMap((m) => m.get(key) ?? [0, 0]), ...staticFeatures(store, level, key, symbolCache, isTestPath)].map((v) => Math.round(v * 1e4) / 1e4)),
    };
  }
  return out;
}

/** One search's own feature vectors (searchRepository's `features`), documentation off. */
export async function onePassFeatures(store, query, top) {
  const { searchWithTuning, ONE_PASS_NAMES } = await loadBuild();
  const { features } = await searchWithTuning(store, query, { features: top, documents: 'off', ranker: 'hand' });
  return Object.fromEntries(LEVELS.map((level) => [level, { ...features[level], names: ONE_PASS_NAMES[level] }]));
}

const USAGE = `usage: node bench/ranker-features.mjs --instances A.jsonl[,B.jsonl] --repos DIR --index-dir DIR --out FEATURES.jsonl
       [--only-repos o/n,...] [--per-repo N] [--newest] [--rolling] [--top 30] [--one-pass] [--resume]
(see the header of bench/ranker-features.mjs)`;

async function main() {
  const { values: opt } = parseBenchArgs({
    usage: USAGE,
    options: { ...Object.fromEntries(['instances', 'repos', 'index-dir', 'out', 'only-repos', 'per-repo', 'top'].map((n) => [n, { type: 'string' }])), rolling: { type: 'boolean' }, newest: { type: 'boolean' }, 'one-pass': { type: 'boolean' }, resume: { type: 'boolean' } },
  });
  if (!opt.instances || !opt.repos || !opt['index-dir'] || !opt.out) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  const { readLocbenchInstances, findRepoGitDir, commitTimestamps, RepositoryIndex } = await loadBuild();
  const top = wholeNumber(USAGE, 'top', opt.top) ?? 30;
  const perRepo = wholeNumber(USAGE, 'per-repo', opt['per-repo']) ?? Infinity;
  const only = opt['only-repos']?.split(',');
  mkdirSync(opt['index-dir'], { recursive: true });
  const byRepo = new Map();
  for (const file of opt.instances.split(',')) {
    for (const instance of (await readLocbenchInstances(file)).instances) {
      if (only && !only.includes(instance.repo)) continue;
      if (!byRepo.has(instance.repo)) byRepo.set(instance.repo, []);
      byRepo.get(instance.repo).push(instance);
    }
  }
  const kept = new Set();
  if (opt.resume && existsSync(opt.out)) {
    for (const line of readFileSync(opt.out, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        kept.add(JSON.parse(line).instance_id);
      } catch {
        // A line cut by a stop is written again below.
      }
    }
    // Drop a cut last line so appended records start on their own line.
    const whole = readFileSync(opt.out, 'utf8').split('\n').filter((line) => { try { JSON.parse(line); return true; } catch { return false; } });
    writeFileSync(opt.out, whole.length ? `${whole.join('\n')}\n` : '');
    process.stderr.write(`resuming: ${kept.size} instances already in ${opt.out}\n`);
  } else writeFileSync(opt.out, '');
  let done = 0;
  const started = Date.now();
  for (const [repo, list] of [...byRepo].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const found = findRepoGitDir(opt.repos, repo);
    if (!found.ok) throw new Error(found.reason);
    const stamps = await commitTimestamps(found.gitDir, list.map((i) => i.base_commit));
    const dated = list.map((instance) => ({ instance, date: stamps.get(instance.base_commit) ?? 0 }));
    dated.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.instance.instance_id < b.instance.instance_id ? -1 : 1));
    const stem = repo.replace(/\//g, '+');
    let previous = null;
    const chosen = opt.newest ? dated.slice(Math.max(0, dated.length - perRepo)) : dated.slice(0, perRepo);
    for (const { instance } of chosen) {
      if (kept.has(instance.instance_id)) continue;
      const cpu0 = process.cpuUsage();
      const t0 = Date.now();
      const path = opt.rolling ? join(opt['index-dir'], `${stem}@rolling.db`) : join(opt['index-dir'], `${stem}@${instance.base_commit}.db`);
      if (!opt.rolling && !existsSync(path) && previous) copyFileSync(previous, path);
      const repository = await RepositoryIndex.open(found.gitDir, { commit: instance.base_commit, indexPath: path });
      await repository.refresh();
      const cpu1 = process.cpuUsage(cpu0);
      const t1 = Date.now();
      const levels = opt['one-pass'] ? await onePassFeatures(repository.store, instance.problem_statement, top) : await candidateFeatures(repository.store, instance.problem_statement, top);
      repository.close();
      previous = path;
      const cpu2 = process.cpuUsage(cpu0);
      const record = { instance_id: instance.instance_id, repo, category: instance.category, query_source: instance.query_source ?? 'issue', gold: instance.edit_functions, levels };
      appendFileSync(opt.out, `${JSON.stringify(record)}\n`);
      done++;
      const s = (us) => (us / 1e6).toFixed(1);
      process.stderr.write(
        `${done} ${repo} index cpu ${s(cpu1.user + cpu1.system)} s wall ${((t1 - t0) / 1000).toFixed(1)} s; features cpu ${s(cpu2.user + cpu2.system - cpu1.user - cpu1.system)} s wall ${((Date.now() - t1) / 1000).toFixed(1)} s; total ${((Date.now() - started) / 60000).toFixed(1)} min\n`,
      );
    }
  }
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) await main();
