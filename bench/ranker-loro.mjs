#!/usr/bin/env node
// The learned ranker (bench/ranker-model.mjs) against the hand-tuned default,
// by the decision rule: leave-one-repository-out over the development
// instances and a held-out slice of the pool's repositories. Both orderings
// rank the same candidates (the default's first --top of
// bench/ranker-features.mjs), so a difference is the model's alone.
//
// Usage:
//   node bench/ranker-loro.mjs --dev DEV1.jsonl[,DEV2.jsonl] --pool POOL.jsonl[,...] [--holdout-every 5] [--all-folds]
//        [--train-dev] [--loss softmax|pairwise] [--uniform-pairs] [--l2 X | --choose-l2 X,Y,..] [--anchor X] [--epochs N] [--out RESULTS.json]
// --loss, --l2, --anchor, --epochs: the trainer's (bench/ranker-model.mjs'
// TRAINING defaults; --uniform-pairs: RankNet's equal pair weights instead of
// LambdaRank's). --choose-l2: each model picks its l2 per level from the list
// by grouped 3-fold cross-validation over its own training repositories (the
// summed gain over the default at that level's two metrics; ties: the larger).
// Feature files come from bench/ranker-features.mjs. The held-out slice: the
// pool's repositories in name order, every --holdout-every-th one starting
// with the first (it reads names only, never the gold); --all-folds holds out
// each of the --holdout-every slices in turn, so every pool repository is
// scored once by a model that never saw it.
// Training: without --train-dev no model sees a development instance: the
// development instances are scored by a model trained on the pool (less the
// held-out slice; with --all-folds, the whole pool), a held-out slice by one
// trained on the other slices. --train-dev adds the other development
// repositories to each development fold, and every development instance to
// the pool's folds.
// Prints per evaluation set: file Acc@1/@5, module Acc@5/@10, function
// Acc@5/@10 before → after with the paired-bootstrap difference [95%
// interval] and instances won/lost; then per repository, per category and per
// query source; then whether the decision rule holds (every metric's difference
// ≥ 0 on both sets, no development repository losing more than one instance
// net at any of them), and whether every interval's low end is ≥ 0 as well.
import { writeFileSync } from 'node:fs';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';
import { LEVELS } from './ranker-features.mjs';

const USAGE = `usage: node bench/ranker-loro.mjs --dev DEV.jsonl[,...] --pool POOL.jsonl[,...] [--holdout-every 5] [--all-folds]
       [--train-dev] [--loss softmax|pairwise] [--uniform-pairs] [--l2 X | --choose-l2 X,Y,..] [--anchor X] [--epochs N] [--out RESULTS.json]
(see the header of bench/ranker-loro.mjs)`;
const strings = ['dev', 'pool', 'holdout-every', 'l2', 'anchor', 'epochs', 'loss', 'out', 'choose-l2'];
const flags = ['all-folds', 'train-dev', 'uniform-pairs'];
const { values: opt } = parseBenchArgs({ usage: USAGE, options: { ...Object.fromEntries(strings.map((n) => [n, { type: 'string' }])), ...Object.fromEntries(flags.map((n) => [n, { type: 'boolean' }])) } });
// Loaded after the arguments are read, so --help and a bad flag answer without loading the build.
const { scoreInstance } = await import('../dist/eval/locbench-metrics.js');
const { pairedBootstrap } = await import('../dist/eval/paired-bootstrap.js');
const { listsOf, readFeatureFiles, rerank, TRAINING, trainLevel } = await import('./ranker-model.mjs');
const training = Object.fromEntries(['l2', 'anchor'].filter((k) => opt[k] !== undefined).map((k) => [k, Number(opt[k])]));
if (Object.values(training).some((v) => !Number.isFinite(v) || v < 0)) {
  process.stderr.write(`--l2 and --anchor take numbers ≥ 0\n\n${USAGE}\n`);
  process.exit(2);
}
if (opt.loss !== undefined && opt.loss !== 'softmax' && opt.loss !== 'pairwise') {
  process.stderr.write(`--loss takes softmax or pairwise\n\n${USAGE}\n`);
  process.exit(2);
}
if (opt.loss) training.loss = opt.loss;
if (opt['uniform-pairs']) training.lambda = false;
const choices = opt['choose-l2']?.split(',').map(Number);
if (choices && (choices.length === 0 || choices.some((v) => !Number.isFinite(v) || v < 0))) {
  process.stderr.write(`--choose-l2 takes comma-separated numbers ≥ 0\n\n${USAGE}\n`);
  process.exit(2);
}
const epochs = wholeNumber(USAGE, 'epochs', opt.epochs);
if (epochs !== undefined) training.epochs = epochs;
if (!opt.dev || !opt.pool) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const every = wholeNumber(USAGE, 'holdout-every', opt['holdout-every']) ?? 5;
if (every < 1) {
  process.stderr.write(`--holdout-every takes a whole number ≥ 1\n\n${USAGE}\n`);
  process.exit(2);
}
const dev = readFeatureFiles(opt.dev);
const pool = readFeatureFiles(opt.pool);
const poolRepos = [...new Set(pool.map((r) => r.repo))].sort();
/** The pool's slices: repositories i ≡ f (mod every); one (f = 0) or, with --all-folds, all of them. */
const slices = (opt['all-folds'] ? Array.from({ length: every }, (_, f) => f) : [0]).map((f) => new Set(poolRepos.filter((_, i) => i % every === f)));
const heldOut = new Set(slices.flatMap((slice) => [...slice]));
const devPool = pool.filter((r) => opt['all-folds'] || !slices[0].has(r.repo));

const METRICS = [['file', 'Acc@1'], ['file', 'Acc@5'], ['module', 'Acc@5'], ['module', 'Acc@10'], ['function', 'Acc@5'], ['function', 'Acc@10']];

const value = (s, [level, metric]) => s[level]?.[metric] ?? 0;
/** Models that keep the default's order (all weights zero: every score ties). */
const identity = Object.fromEntries(LEVELS.map((l) => [l, { mean: [], scale: [], weights: [] }]));
const LEVEL_METRICS = Object.fromEntries(LEVELS.map((level) => [level, METRICS.filter(([l]) => l === level)]));
const chosen = [];
let fold = '';

/** A model per level trained on `records`; with --choose-l2, each level's l2 is chosen on `records` alone (see chooseL2). */
function train(records) {
  return Object.fromEntries(
    LEVELS.map((level) => {
      const l2 = choices ? chooseL2(records, level) : training.l2;
      return [level, trainLevel(listsOf(records, level), { ...training, ...(l2 === undefined ? {} : { l2 }) })];
    }),
  );
}

/**
 * The --choose-l2 value with the highest summed gain over the default at the level's two metrics by
 * grouped 3-fold cross-validation over `records`' own repositories (name order, i mod 3); ties go to the
 * larger l2 (nearer the default). Reads only the training records.
 */
function chooseL2(records, level) {
  const repos = [...new Set(records.map((r) => r.repo))].sort();
  const folds = [0, 1, 2].map((f) => new Set(repos.filter((_, i) => i % 3 === f))).filter((fold) => fold.size > 0);
  let best = null;
  for (const l2 of [...choices].sort((a, b) => b - a)) {
    let gain = 0;
    for (const fold of folds) {
      const model = trainLevel(listsOf(records.filter((r) => !fold.has(r.repo)), level), { ...training, l2 });
      for (const s of score({ ...identity, [level]: model }, records.filter((r) => fold.has(r.repo)))) for (const m of LEVEL_METRICS[level]) gain += value(s.after, m) - value(s.before, m);
    }
    if (best === null || gain > best.gain) best = { l2, gain };
  }
  chosen.push({ fold, level, l2: best.l2, gain: best.gain, records: records.length });
  return best.l2;
}

/** Default and model scores of each record. */
function score(models, records) {
  return records.map((record) => {
    const lists = (order) => ({ found_files: order.file, found_modules: order.module, found_entities: order.function });
    const before = Object.fromEntries(LEVELS.map((l) => [l, record.levels[l].keys]));
    const after = Object.fromEntries(LEVELS.map((l) => [l, rerank(models[l], record.levels[l].keys, record.levels[l].x)]));
    return { record, before: scoreInstance(record.gold, lists(before)), after: scoreInstance(record.gold, lists(after)) };
  });
}

const t0 = process.cpuUsage();
const devScored = [];
const devRepos = [...new Set(dev.map((r) => r.repo))].sort();
let models = 0;
if (opt['train-dev']) {
  for (const repo of devRepos) {
    fold = `dev-${repo}`;
    devScored.push(...score(train([...devPool, ...dev.filter((r) => r.repo !== repo)]), dev.filter((r) => r.repo === repo)));
    models++;
  }
} else if (dev.length > 0) {
  fold = 'dev';
  devScored.push(...score(train(devPool), dev));
  models++;
}
const poolScored = [];
for (const slice of slices) {
  const test = pool.filter((r) => slice.has(r.repo));
  if (test.length === 0) continue;
  fold = `pool-${slices.indexOf(slice)}`;
  poolScored.push(...score(train([...pool.filter((r) => !slice.has(r.repo)), ...(opt['train-dev'] ? dev : [])]), test));
  models++;
}
const cpu = process.cpuUsage(t0);

const f3 = (x) => x.toFixed(3);
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const label = ([l, m]) => `${l} ${m}`;

/** Per metric: before, after, bootstrap difference, won, lost. */
function summary(scored) {
  return METRICS.map((m) => {
    const a = scored.map((s) => value(s.before, m));
    const b = scored.map((s) => value(s.after, m));
    const r = scored.length > 0 ? pairedBootstrap(a, b) : { difference: 0, low: 0, high: 0, won: 0, lost: 0 };
    return { metric: label(m), before: mean(a), after: mean(b), difference: r.difference, low: r.low, high: r.high, won: r.won, lost: r.lost };
  });
}

function print(title, scored) {
  console.log(`\n${title}: ${scored.length} instances, ${new Set(scored.map((s) => s.record.repo)).size} repositories`);
  for (const s of summary(scored)) console.log(`  ${s.metric.padEnd(16)} ${f3(s.before)} → ${f3(s.after)}  ${s.difference >= 0 ? '+' : ''}${f3(s.difference)} [${f3(s.low)}, ${f3(s.high)}]  ${s.won} won / ${s.lost} lost`);
}

function breakdown(title, scored, keyOf) {
  console.log(`\n${title}: n, then per metric before→after (${METRICS.map(label).join(', ')})`);
  const groups = [...new Set(scored.map((s) => keyOf(s.record)))].sort();
  const rows = [];
  for (const g of groups) {
    const part = scored.filter((s) => keyOf(s.record) === g);
    const cells = METRICS.map((m) => `${f3(mean(part.map((s) => value(s.before, m))))}→${f3(mean(part.map((s) => value(s.after, m))))}`);
    const net = METRICS.map((m) => part.reduce((n, s) => n + value(s.after, m) - value(s.before, m), 0));
    rows.push({ group: g, n: part.length, net });
    console.log(`  ${g.padEnd(34)} ${String(part.length).padStart(4)}  ${cells.join('  ')}`);
  }
  return rows;
}

print('development, leave-one-repository-out', devScored);
print(`pool's held-out repositories (${[...heldOut].join(', ')})`, poolScored);
console.log(`\ntraining: ${JSON.stringify({ ...TRAINING, ...training })}${choices ? `; l2 chosen per model and level from ${choices.join(', ')}: ${chosen.map((c) => `${c.fold} ${c.level} ${c.l2}`).join(', ')}` : ''}${opt['train-dev'] ? ', development folds also train on the other development repositories' : ', no model sees a development instance'}`);
const devRows = breakdown('development per repository', devScored, (r) => r.repo);
breakdown('development per category', devScored, (r) => r.category);
breakdown('pool held-out per repository', poolScored, (r) => r.repo);
breakdown('pool held-out per query source', poolScored, (r) => r.query_source);
const sets = [summary(devScored), summary(poolScored)];
const everyMetric = sets.every((set) => set.every((s) => s.difference >= 0));
const everyLow = sets.every((set) => set.every((s) => s.low >= 0));
const worstRepo = devRows.flatMap((row) => row.net.map((n, i) => ({ repo: row.group, metric: label(METRICS[i]), n }))).reduce((a, b) => (b.n < a.n ? b : a), { n: 0 });
const passes = everyMetric && worstRepo.n >= -1 && poolScored.length > 0 && devScored.length > 0;
console.log(`\ndecision rule: every metric ≥ default on both sets: ${everyMetric ? 'yes' : 'no'}; worst development repository net ${worstRepo.n} (${worstRepo.repo ?? '-'} ${worstRepo.metric ?? ''}); ${passes ? 'PASSES' : 'does not pass'}`);
console.log(`every interval's low end ≥ 0 as well: ${everyLow ? 'yes' : 'no'}`);
console.log(`training + scoring CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (${models} models × ${LEVELS.length} levels; ${pool.length} pool instances of ${poolRepos.length} repositories, ${dev.length} development instances)`);
if (opt.out) writeFileSync(opt.out, JSON.stringify({ training: { ...TRAINING, ...training }, chosen, trainDev: Boolean(opt['train-dev']), heldOut: [...heldOut], dev: sets[0], pool: sets[1], devRepositories: devRows, passes, everyLow }, null, 1));
