#!/usr/bin/env node
// Retrieval quality over several LocBench splits, judged per repository and by
// leave-one-repository-out (LORO): for each repository, the configuration that
// scores best on the other repositories (macro mean of file Acc@5 and function
// Acc@5 over them) is scored on it. Prints, per configuration, the pooled
// figures, each repository, the worst repository and each category; then the
// LORO figures (ties go to the configuration listed first; the folds a tie
// decides are listed, and the figures with ties to the last listed given too);
// then a paired bootstrap of every configuration against the first, with the
// instances each one won and lost at function and file Acc@5. No model, no gold-derived settings: configurations are SearchOptions.
//
// Usage:
//   node bench/tune-loro.mjs --instances A.jsonl,B.jsonl --repos DIR --index-dir DIR \
//        [--configs CONFIGS.json] [--out RESULTS.json] [--only-repos o/n,…] [--per-repo N] [--timing N]
//   node bench/tune-loro.mjs --instances A.jsonl,B.jsonl --from R1.json,R2.json   (report over saved runs, e.g. run per repository group in parallel)
// CONFIGS.json: [{"label": "default", "options": {}}, {"label": "…", "options": { SearchOptions }}, …]
//   (default: one configuration, the defaults).
// --per-repo N scores only each repository's N instances with the oldest base
// commits (a cheaper sample for a loaded machine: fewer commits to index; the
// choice reads commit dates only, never the gold).
// Candidate depth: per level, the share of instances whose every gold item is
// among the first 50 / 100 / 200 candidates of the whole ranked list (recall
// of the candidate set, before any cut at 10), per configuration. The paired
// bootstrap is given for the instances of each --instances file (split) and
// for all of them together; then per repository, with the per-repository rule
// (bench/repo-rule.mjs: no repository's interval below -0.01 at any level).
// --timing N: the search times (p50 column, searchMs in --out) are N more
// searches per configuration and instance after the scored ones, without the
// shared BM25 memo and in rotating order (the scored searches share BM25
// results between configurations, so their times compare nothing).
// --index-dir keeps one commit index per instance (`owner+name@commit.db`), built
// by copying the previous instance's index of the same repository and moving it
// to the new commit, so a second run only searches. Several GB for 135 instances.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBenchArgs } from './bench-args.mjs';

const { values: opt } = parseBenchArgs({
  usage: `usage: node bench/tune-loro.mjs --instances A.jsonl[,B.jsonl] --repos DIR --index-dir DIR
         [--configs CONFIGS.json] [--out RESULTS.json] [--only-repos o/n,...] [--per-repo N] [--timing N]
       node bench/tune-loro.mjs --instances A.jsonl[,B.jsonl] --from R1.json,R2.json
(see the header of bench/tune-loro.mjs)`,
  options: { instances: { type: 'string' }, repos: { type: 'string' }, 'index-dir': { type: 'string' }, configs: { type: 'string' }, out: { type: 'string' }, 'only-repos': { type: 'string' }, 'per-repo': { type: 'string' }, from: { type: 'string' }, timing: { type: 'string' } },
});
// Loaded after the arguments are read, so --help and a bad flag answer without loading the build.
const { perRepositoryRule, RULE_FLOOR } = await import('./repo-rule.mjs');
const { RepositoryIndex } = await import('../dist/index/repository-index.js');
const { searchWithTuning } = await import('../dist/retrieve/search-repository.js');
const { LexicalMemo } = await import('../dist/retrieve/lexical-retriever.js');
const { readLocbenchInstances } = await import('../dist/eval/locbench-instances.js');
const { commitTimestamps, findRepoGitDir } = await import('../dist/eval/repo-lookup.js');
const { goldAtLevel, scoreInstance } = await import('../dist/eval/locbench-metrics.js');
const { pairedBootstrap } = await import('../dist/eval/paired-bootstrap.js');
const arg = (name, fallback) => opt[name.slice(2)] ?? fallback;
const instanceFiles = arg('--instances', '').split(',').filter(Boolean);
const reposDir = arg('--repos');
const indexDir = arg('--index-dir');
const configs = arg('--configs') ? JSON.parse(readFileSync(arg('--configs'), 'utf8')) : [{ label: 'default', options: {} }];
const onlyRepos = arg('--only-repos')?.split(',');
const perRepoLimit = Number(arg('--per-repo', 'Infinity'));
const fromFiles = arg('--from')?.split(',');
const timingRuns = Number(arg('--timing', '0'));
if (instanceFiles.length === 0 || (!fromFiles && (!reposDir || !indexDir))) {
  console.error('usage: node bench/tune-loro.mjs --instances A.jsonl[,B.jsonl] --repos DIR --index-dir DIR [--configs F] [--out F]');
  process.exit(2);
}
if (indexDir) mkdirSync(indexDir, { recursive: true });

const instances = [];
/** The --instances file each instance came from (its split). */
const splitOf = new Map();
for (const file of instanceFiles) {
  const read = (await readLocbenchInstances(file)).instances;
  for (const instance of read) splitOf.set(instance.instance_id, file);
  instances.push(...read);
}
const byRepo = new Map();
for (const instance of instances) {
  if (onlyRepos && !onlyRepos.includes(instance.repo)) continue;
  if (!byRepo.has(instance.repo)) byRepo.set(instance.repo, []);
  byRepo.get(instance.repo).push(instance);
}

// scores[c][i] = InstanceScores of configuration c on instance i (in `order`).
const order = [];
let scores = configs.map(() => []);
let searchMs = configs.map(() => []);
// reach[c][i][level][depth]: every gold item of the level among the first `depth` candidates.
let reach = configs.map(() => []);
const DEPTHS = [50, 100, 200];
const LEVEL_NAMES = ['file', 'module', 'function'];
const started = Date.now();
if (fromFiles) {
  const byId = new Map(instances.map((i) => [i.instance_id, i]));
  const saved = fromFiles.map((f) => JSON.parse(readFileSync(f, 'utf8')));
  configs.length = 0;
  configs.push(...saved[0].scores.map((c) => ({ label: c.label })));
  scores = configs.map(() => []);
  searchMs = configs.map((_, c) => saved.flatMap((run) => run.searchMs?.[c] ?? []));
  reach = configs.map((_, c) => saved.flatMap((run) => run.reach?.[c] ?? run.order.map(() => null)));
  for (const run of saved) {
    run.order.forEach((id, i) => {
      order.push(byId.get(id));
      run.scores.forEach((c, k) => scores[k].push(c.scores[i]));
    });
  }
  byRepo.clear();
}
for (const [repo, list] of [...byRepo].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const found = findRepoGitDir(reposDir, repo);
  if (!found.ok) throw new Error(found.reason);
  const stamps = await commitTimestamps(found.gitDir, list.map((i) => i.base_commit));
  const dated = list.map((instance) => ({ instance, date: stamps.get(instance.base_commit) ?? 0 }));
  dated.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.instance.instance_id < b.instance.instance_id ? -1 : 1));
  // A `owner+name@seed.db` in --index-dir (any commit of the repository) saves the first full index.
  const seed = join(indexDir, `${repo.replace(/\//g, '+')}@seed.db`);
  let previous = existsSync(seed) ? seed : null;
  for (const { instance } of dated.slice(0, perRepoLimit)) {
    const path = join(indexDir, `${repo.replace(/\//g, '+')}@${instance.base_commit}.db`);
    if (!existsSync(path) && previous) copyFileSync(previous, path);
    const repository = await RepositoryIndex.open(found.gitDir, { commit: instance.base_commit, indexPath: path });
    await repository.refresh();
    order.push(instance);
    // Configurations that send BM25 the same query share its result (the times below then measure the rest).
    const lexicalMemo = new LexicalMemo();
    for (let c = 0; c < configs.length; c++) {
      const t0 = performance.now();
      const result = await searchWithTuning(repository.store, instance.problem_statement, { ...configs[c].options, lexicalMemo });
      searchMs[c].push(performance.now() - t0);
      const lists = {
        file: result.files.map((f) => f.path),
        module: result.modules.map((m) => `${m.path}:${m.qualifiedName}`),
        function: result.functions.map((f) => `${f.path}:${f.qualifiedName}`),
      };
      reach[c].push(Object.fromEntries(LEVEL_NAMES.map((level) => {
        const gold = goldAtLevel(instance.edit_functions, level);
        const rank = (item) => lists[level].indexOf(item);
        const deepest = gold.length === 0 ? -1 : Math.max(...gold.map((g) => (rank(g) < 0 ? Infinity : rank(g))));
        return [level, Object.fromEntries(DEPTHS.map((d) => [d, gold.length > 0 && deepest < d]))];
      })));
      scores[c].push(
        scoreInstance(instance.edit_functions, {
          found_files: result.files.slice(0, 50).map((f) => f.path),
          found_modules: result.modules.slice(0, 50).map((m) => `${m.path}:${m.qualifiedName}`),
          found_entities: result.functions.slice(0, 50).map((f) => `${f.path}:${f.qualifiedName}`),
        }),
      );
    }
    if (timingRuns > 0) {
      const times = configs.map(() => []);
      for (let r = 0; r < timingRuns; r++) {
        for (let k = 0; k < configs.length; k++) {
          const c = (k + r + order.length) % configs.length;
          const t0 = performance.now();
          await searchWithTuning(repository.store, instance.problem_statement, configs[c].options);
          times[c].push(performance.now() - t0);
        }
      }
      configs.forEach((_, c) => (searchMs[c][searchMs[c].length - 1] = times[c].sort((a, b) => a - b)[Math.floor(times[c].length / 2)]));
    }
    repository.close();
    previous = path;
    process.stderr.write(`${order.length} ${repo} ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
}
process.stderr.write(`\n(${((Date.now() - started) / 1000).toFixed(0)} s)\n`);

const METRICS = [['file', 'Acc@1'], ['file', 'Acc@3'], ['file', 'Acc@5'], ['module', 'Acc@5'], ['module', 'Acc@10'], ['function', 'Acc@5'], ['function', 'Acc@10']];
const value = (s, [level, metric]) => s[level]?.[metric] ?? 0;
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const repos = [...new Set(order.map((i) => i.repo))].sort();
const categories = [...new Set(order.map((i) => i.category))].sort();
const idx = (pred) => order.map((inst, i) => (pred(inst) ? i : -1)).filter((i) => i >= 0);
const figure = (c, indices, m) => mean(indices.map((i) => value(scores[c][i], m)));
const objective = (c, repoSet) => mean(repoSet.map((r) => (figure(c, idx((x) => x.repo === r), ['file', 'Acc@5']) + figure(c, idx((x) => x.repo === r), ['function', 'Acc@5'])) / 2));
const f3 = (x) => x.toFixed(3);
const pad = (s, n) => String(s).padEnd(n);

const all = order.map((_, i) => i);
const report = { instances: order.length, configs: [], loro: null };
console.log(`${order.length} instances, ${repos.length} repositories\n`);
console.log(pad('config', 26), METRICS.map(([l, m]) => pad(`${l[0]}${l === 'function' ? 'n' : ''} ${m}`, 9)).join(''), pad('worst f@5', 26), pad('worst fn@5', 26), 'p50 ms');
configs.forEach((config, c) => {
  const pooled = METRICS.map((m) => figure(c, all, m));
  const perRepo = repos.map((r) => ({ repo: r, n: idx((x) => x.repo === r).length, file5: figure(c, idx((x) => x.repo === r), ['file', 'Acc@5']), fn5: figure(c, idx((x) => x.repo === r), ['function', 'Acc@5']) }));
  const worstFile = perRepo.reduce((a, b) => (b.file5 < a.file5 ? b : a));
  const worstFn = perRepo.reduce((a, b) => (b.fn5 < a.fn5 ? b : a));
  const sorted = [...searchMs[c]].sort((a, b) => a - b);
  console.log(pad(config.label, 26), pooled.map((x) => pad(f3(x), 9)).join(''), pad(`${f3(worstFile.file5)} ${worstFile.repo}`, 26), pad(`${f3(worstFn.fn5)} ${worstFn.repo}`, 26), sorted[Math.floor(sorted.length / 2)]?.toFixed(0));
  report.configs.push({
    label: config.label,
    pooled: Object.fromEntries(METRICS.map((m, i) => [`${m[0]} ${m[1]}`, pooled[i]])),
    perRepo,
    byCategory: categories.map((cat) => ({ category: cat, n: idx((x) => x.category === cat).length, file5: figure(c, idx((x) => x.category === cat), ['file', 'Acc@5']), fn5: figure(c, idx((x) => x.category === cat), ['function', 'Acc@5']) })),
  });
});

const splitNames = [...new Set(order.map((i) => splitOf.get(i.instance_id)))];
if (splitNames.length > 1) {
  console.log('\nper split');
  for (const f of splitNames) {
    const ii = idx((x) => splitOf.get(x.instance_id) === f);
    configs.forEach((config, c) => console.log(pad(`${f.split('/').pop()} (${ii.length})`, 26), pad(config.label, 20), METRICS.map((m) => pad(f3(figure(c, ii, m)), 9)).join('')));
  }
}
console.log('\nper repository: file Acc@5 / function Acc@5');
console.log(pad('repo', 30), pad('n', 4), configs.map((c) => pad(c.label.slice(0, 16), 17)).join(''));
for (const [r, repo] of repos.entries()) {
  console.log(pad(repo, 30), pad(report.configs[0].perRepo[r].n, 4), report.configs.map((c) => pad(`${f3(c.perRepo[r].file5)}/${f3(c.perRepo[r].fn5)}`, 17)).join(''));
}
console.log('\nby category: file Acc@5 / function Acc@5');
for (const [k, cat] of categories.entries()) {
  console.log(pad(cat, 30), pad(report.configs[0].byCategory[k].n, 4), report.configs.map((c) => pad(`${f3(c.byCategory[k].file5)}/${f3(c.byCategory[k].fn5)}`, 17)).join(''));
}

if (configs.length > 1 && repos.length > 1) {
  // Leave one repository out: choose on the others, score on it.
  // Ties on the other repositories go to the configuration listed first. A
  // setting that changes instances of one repository only ties with its
  // absence on that repository's fold, so the same figures are also given
  // with ties going to the last listed: the two bound what the order decides.
  const chosen = new Map();
  const loroScores = new Array(order.length);
  const lastScores = new Array(order.length);
  const ties = [];
  for (const repo of repos) {
    const others = repos.filter((r) => r !== repo);
    let best = 0;
    for (let c = 1; c < configs.length; c++) if (objective(c, others) > objective(best, others) + 1e-12) best = c;
    const tied = configs.map((_, c) => c).filter((c) => Math.abs(objective(c, others) - objective(best, others)) <= 1e-12);
    const last = tied[tied.length - 1];
    chosen.set(repo, configs[best].label);
    if (tied.length > 1 && idx((x) => x.repo === repo).some((i) => value(scores[best][i], ['function', 'Acc@5']) !== value(scores[last][i], ['function', 'Acc@5']) || value(scores[best][i], ['file', 'Acc@5']) !== value(scores[last][i], ['file', 'Acc@5']))) {
      ties.push(`${repo}: ${tied.map((c) => configs[c].label).join(' = ')}`);
    }
    for (const i of idx((x) => x.repo === repo)) {
      loroScores[i] = scores[best][i];
      lastScores[i] = scores[last][i];
    }
  }
  const loroFigure = (indices, m, from = loroScores) => mean(indices.map((i) => value(from[i], m)));
  console.log('\nleave-one-repository-out (setting chosen on the other repositories)');
  console.log(pad('pooled', 30), METRICS.map(([l, m]) => `${l} ${m} ${f3(loroFigure(all, [l, m]))}`).join('  '));
  const loroRepos = repos.map((repo) => ({ repo, chosen: chosen.get(repo), file5: loroFigure(idx((x) => x.repo === repo), ['file', 'Acc@5']), fn5: loroFigure(idx((x) => x.repo === repo), ['function', 'Acc@5']) }));
  for (const r of loroRepos) console.log(pad(r.repo, 30), pad(`${f3(r.file5)}/${f3(r.fn5)}`, 14), 'chosen:', r.chosen);
  const worst = loroRepos.reduce((a, b) => (b.file5 < a.file5 ? b : a));
  console.log(pad('worst repository (file Acc@5)', 30), `${worst.repo} ${f3(worst.file5)}`);
  for (const cat of categories) {
    const ii = idx((x) => x.category === cat);
    console.log(pad(cat, 30), `n=${ii.length} file Acc@5 ${f3(loroFigure(ii, ['file', 'Acc@5']))} function Acc@5 ${f3(loroFigure(ii, ['function', 'Acc@5']))}`);
  }
  console.log(`ties that change the held-out repository's figures (${ties.length}):${ties.map((t) => `\n  ${t}`).join('')}`);
  console.log(pad('ties to the last listed', 30), ['file Acc@5', 'function Acc@5'].map((m) => `${m} ${f3(loroFigure(all, m.split(' '), lastScores))}`).join('  '),
    categories.map((cat) => `${cat} fn ${f3(loroFigure(idx((x) => x.category === cat), ['function', 'Acc@5'], lastScores))}`).join('  '));
  report.loro = { pooled: Object.fromEntries(METRICS.map((m) => [`${m[0]} ${m[1]}`, loroFigure(all, m)])), perRepo: loroRepos };
}

if (reach[0].some((r) => r)) {
  console.log('\ncandidate depth: share of instances with every gold item among the first 50 / 100 / 200 candidates');
  const splits = [...new Set(order.map((i) => splitOf.get(i.instance_id)))];
  for (const [name, indices] of [...splits.map((f) => [f.split('/').pop(), idx((x) => splitOf.get(x.instance_id) === f)]), ['all', all]]) {
    for (const level of LEVEL_NAMES) {
      const cells = configs.map((config, c) => `${config.label}: ${DEPTHS.map((d) => f3(mean(indices.map((i) => (reach[c][i]?.[level]?.[d] ? 1 : 0))))).join(' / ')}`);
      console.log(pad(`${name} (${indices.length})`, 26), pad(level, 9), cells.join('   '));
    }
  }
}

if (configs.length > 1) {
  console.log(`\npaired bootstrap vs ${configs[0].label} (10,000 resamples, seed 1): difference [95% interval] p, won/lost`);
  const splits = [...new Set(order.map((i) => splitOf.get(i.instance_id)))];
  const groups = [...(splits.length > 1 ? splits.map((f) => [f.split('/').pop(), idx((x) => splitOf.get(x.instance_id) === f)]) : []), ['all', all]];
  for (let c = 1; c < configs.length; c++) {
    for (const [name, indices] of groups) {
      const cells = [['file', 'Acc@1'], ['file', 'Acc@5'], ['module', 'Acc@5'], ['module', 'Acc@10'], ['function', 'Acc@5'], ['function', 'Acc@10']].map((m) => {
        const r = pairedBootstrap(indices.map((i) => value(scores[0][i], m)), indices.map((i) => value(scores[c][i], m)));
        return `${m[0]} ${m[1]} ${r.difference >= 0 ? '+' : ''}${f3(r.difference)} [${f3(r.low)}, ${f3(r.high)}] ${r.won}/${r.lost}`;
      });
      console.log(pad(`${configs[c].label} ${name}`, 40), cells.join('   '));
    }
    // Which instances flipped (what to read next).
    for (const m of [['function', 'Acc@10'], ['module', 'Acc@5'], ['module', 'Acc@10'], ['file', 'Acc@5']]) {
      const won = all.filter((i) => value(scores[c][i], m) > value(scores[0][i], m)).map((i) => order[i].instance_id);
      const lost = all.filter((i) => value(scores[c][i], m) < value(scores[0][i], m)).map((i) => order[i].instance_id);
      if (won.length + lost.length > 0) console.log(pad('', 26), `${m[0]} ${m[1]} won: ${won.join(' ') || '-'}; lost: ${lost.join(' ') || '-'}`);
    }
  }
  console.log('\nper repository (module Acc@10 / function Acc@10), each configuration');
  for (const repo of repos) {
    const ii = idx((x) => x.repo === repo);
    console.log(pad(repo, 30), pad(ii.length, 4), configs.map((_, c) => pad(`${f3(figure(c, ii, ['module', 'Acc@10']))}/${f3(figure(c, ii, ['function', 'Acc@10']))}`, 17)).join(''));
  }
  // The per-repository rule (bench/repo-rule.mjs): no repository loses at any level.
  console.log(`\nper repository paired bootstrap vs ${configs[0].label}: difference [95% interval] won/lost; rule: every low end >= ${RULE_FLOOR}`);
  report.perRepoRule = [];
  const repoOf = order.map((i) => i.repo);
  for (let c = 1; c < configs.length; c++) {
    const { rows, failing: failed } = perRepositoryRule(repoOf, scores[0], scores[c]);
    for (const repo of repos) {
      const cells = rows.filter((r) => r.repo === repo).map((r) => `${r.metric[0].slice(0, 3)} ${r.metric[1]} ${r.difference >= 0 ? '+' : ''}${f3(r.difference)} [${f3(r.low)}, ${f3(r.high)}] ${r.won}/${r.lost}`);
      console.log(pad(`${configs[c].label.slice(0, 20)} ${repo}`, 48), cells.join('  '));
    }
    const failing = failed.map((r) => `${r.repo} ${r.metric[0]} ${r.metric[1]} ${f3(r.difference)} [${f3(r.low)}, ${f3(r.high)}]`);
    console.log(pad(`${configs[c].label}:`, 26), failing.length === 0 ? 'passes (no repository loses at any level)' : `fails in ${failing.length}: ${failing.join('; ')}`);
    report.perRepoRule.push({ label: configs[c].label, passes: failing.length === 0, failing });
  }
}
const out = arg('--out');
if (out) writeFileSync(out, JSON.stringify({ ...report, order: order.map((i) => i.instance_id), scores: configs.map((c, k) => ({ label: c.label, scores: scores[k] })), searchMs, reach }));
