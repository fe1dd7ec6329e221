#!/usr/bin/env node
// The learned ranker (bench/ranker-model.mjs) against the hand-tuned default,
// by the decision rule: leave-one-repository-out over the development
// instances (each development repository scored by a model trained on the
// training pool and the other development repositories), and a held-out slice
// of the pool's repositories (scored by a model trained on the rest of the
// pool and all development instances). Both orderings rank the same
// candidates (the default's first --top of bench/ranker-features.mjs), so a
// difference is the model's alone.
//
// Usage:
//   node bench/ranker-loro.mjs --dev DEV1.jsonl[,DEV2.jsonl] --pool POOL.jsonl[,...] [--holdout-every 5] [--l2 X] [--anchor X] [--out RESULTS.json]
// --l2, --anchor: the trainer's (bench/ranker-model.mjs' TRAINING defaults).
// Feature files come from bench/ranker-features.mjs. The held-out slice: the
// pool's repositories in name order, every --holdout-every-th one starting
// with the first (it reads names only, never the gold).
// Prints per evaluation set: file Acc@1/@5, module Acc@5/@10, function
// Acc@5/@10 before → after with the paired-bootstrap difference [95%
// interval] and instances won/lost; then per repository, per category and per
// query source; then whether the decision rule holds (every metric's difference
// ≥ 0 on both sets, no development repository losing more than one instance
// net at any of them).
import { writeFileSync } from 'node:fs';
import { scoreInstance } from '../dist/eval/locbench-metrics.js';
import { pairedBootstrap } from '../dist/eval/paired-bootstrap.js';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';
import { listsOf, readFeatureFiles, rerank, trainLevel } from './ranker-model.mjs';
import { LEVELS } from './ranker-features.mjs';

const USAGE = `usage: node bench/ranker-loro.mjs --dev DEV.jsonl[,...] --pool POOL.jsonl[,...] [--holdout-every 5] [--l2 X] [--anchor X] [--out RESULTS.json]
(see the header of bench/ranker-loro.mjs)`;
const { values: opt } = parseBenchArgs({ usage: USAGE, options: { dev: { type: 'string' }, pool: { type: 'string' }, 'holdout-every': { type: 'string' }, l2: { type: 'string' }, anchor: { type: 'string' }, out: { type: 'string' } } });
const training = Object.fromEntries(['l2', 'anchor'].filter((k) => opt[k] !== undefined).map((k) => [k, Number(opt[k])]));
if (Object.values(training).some((v) => !Number.isFinite(v) || v < 0)) {
  process.stderr.write(`--l2 and --anchor take numbers ≥ 0\n\n${USAGE}\n`);
  process.exit(2);
}
if (!opt.dev || !opt.pool) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const every = wholeNumber(USAGE, 'holdout-every', opt['holdout-every']) ?? 5;
const dev = readFeatureFiles(opt.dev);
const pool = readFeatureFiles(opt.pool);
const poolRepos = [...new Set(pool.map((r) => r.repo))].sort();
const heldOut = new Set(poolRepos.filter((_, i) => i % every === 0));
const poolTrain = pool.filter((r) => !heldOut.has(r.repo));
const poolTest = pool.filter((r) => heldOut.has(r.repo));

const METRICS = [['file', 'Acc@1'], ['file', 'Acc@5'], ['module', 'Acc@5'], ['module', 'Acc@10'], ['function', 'Acc@5'], ['function', 'Acc@10']];

/** A model per level trained on `records`. */
function train(records) {
  return Object.fromEntries(LEVELS.map((level) => [level, trainLevel(listsOf(records, level), training)]));
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
for (const repo of devRepos) devScored.push(...score(train([...poolTrain, ...dev.filter((r) => r.repo !== repo)]), dev.filter((r) => r.repo === repo)));
const poolScored = poolTest.length > 0 ? score(train([...poolTrain, ...dev]), poolTest) : [];
const cpu = process.cpuUsage(t0);

const f3 = (x) => x.toFixed(3);
const value = (s, [level, metric]) => s[level]?.[metric] ?? 0;
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
const devRows = breakdown('development per repository', devScored, (r) => r.repo);
breakdown('development per category', devScored, (r) => r.category);
breakdown('pool held-out per repository', poolScored, (r) => r.repo);
breakdown('pool held-out per query source', poolScored, (r) => r.query_source);
const sets = [summary(devScored), summary(poolScored)];
const everyMetric = sets.every((set) => set.every((s) => s.difference >= 0));
const worstRepo = devRows.flatMap((row) => row.net.map((n, i) => ({ repo: row.group, metric: label(METRICS[i]), n }))).reduce((a, b) => (b.n < a.n ? b : a), { n: 0 });
const passes = everyMetric && worstRepo.n >= -1 && poolScored.length > 0;
console.log(`\ndecision rule: every metric ≥ default on both sets: ${everyMetric ? 'yes' : 'no'}; worst development repository net ${worstRepo.n} (${worstRepo.repo ?? '-'} ${worstRepo.metric ?? ''}); ${passes ? 'PASSES' : 'does not pass'}`);
console.log(`training + scoring CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (${devRepos.length + 1} models × ${LEVELS.length} levels; ${poolTrain.length} pool training instances)`);
if (opt.out) writeFileSync(opt.out, JSON.stringify({ heldOut: [...heldOut], dev: sets[0], pool: sets[1], passes }, null, 1));
