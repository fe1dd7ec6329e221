#!/usr/bin/env node
// How often the no-query repository map shows the gold file: for each LocBench instance, the repository is
// indexed at the instance's base commit (commit mode over the mirror; one index per repository, moved from
// commit to commit), repo_map is called with no focus at 1,000 and 2,000 tokens, and the gold files (the
// part of each edit_functions entry before ':') are looked up among the files the map shows. Printed per
// repository and overall, beside the chance level of the same run: the share of the repository's ranked
// files the map shows (what a map of the same size drawn at random would hit per gold file).
//
// Usage:
//   node bench/repo-map-gold.mjs --split FILE.jsonl [--split FILE2.jsonl]... [--repos DIR] [--index DIR] [--repo OWNER/NAME] [--max-instances N]
// --repos is the folder of bare mirrors (OWNER+NAME/repo; default $MIRRORS); --index defaults to a temp folder.
// Needs `npm run build` first.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const USAGE = `usage: node bench/repo-map-gold.mjs --split FILE.jsonl... [--repos DIR (default $MIRRORS)] [--index DIR] [--repo OWNER/NAME] [--max-instances N]
  Share of LocBench instances whose gold file is in a 1,000- and a 2,000-token repo_map with no query.`;

const { values } = parseBenchArgs({
  usage: USAGE,
  options: {
    split: { type: 'string', multiple: true },
    repos: { type: 'string' },
    index: { type: 'string' },
    repo: { type: 'string' },
    'max-instances': { type: 'string' },
  },
});
if (!values.split || values.split.length === 0) {
  process.stderr.write(`--split is required (a LocBench split, e.g. $BENCH/locbench-dev.jsonl)\n\n${USAGE}\n`);
  process.exit(2);
}
if (!values.repos && !process.env.MIRRORS) {
  process.stderr.write(`--repos DIR (or MIRRORS) is required: the folder of bare mirrors, OWNER+NAME/repo\n\n${USAGE}\n`);
  process.exit(2);
}
const splits = values.split;
const reposDir = resolve(values.repos ?? process.env.MIRRORS);
const maxInstances = wholeNumber(USAGE, 'max-instances', values['max-instances']) ?? Infinity;
const work = values.index ? resolve(values.index) : mkdtempSync(join(tmpdir(), 'reponav-map-gold-'));
mkdirSync(work, { recursive: true });
const BUDGETS = [1000, 2000];

const { RepositorySet, callTool, createToolRegistry } = await import('../dist/reponav.js');
const registry = createToolRegistry({ include: ['repo_map'] });

const instances = splits
  .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)))
  .filter((i) => !values.repo || i.repo === values.repo)
  .slice(0, maxInstances);
const byRepo = new Map();
for (const instance of instances) {
  if (!byRepo.has(instance.repo)) byRepo.set(instance.repo, []);
  byRepo.get(instance.repo).push(instance);
}

const out = (line) => process.stdout.write(`${line}\n`);
const totals = { instances: 0, any: Object.fromEntries(BUDGETS.map((b) => [b, 0])), goldFiles: 0, found: Object.fromEntries(BUDGETS.map((b) => [b, 0])), chance: Object.fromEntries(BUDGETS.map((b) => [b, 0])) };
const rows = [];
for (const [repo, list] of [...byRepo.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const gitDir = join(reposDir, repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) {
    out(`skipped ${repo}: no mirror at ${gitDir}`);
    continue;
  }
  list.sort((a, b) => (a.base_commit < b.base_commit ? -1 : 1));
  const repositories = await RepositorySet.open([{ path: gitDir, commit: list[0].base_commit, indexPath: join(work, `${repo.replace('/', '+')}.db`) }]);
  const handle = repositories.select();
  const row = { repo, instances: 0, any: Object.fromEntries(BUDGETS.map((b) => [b, 0])), chance: Object.fromEntries(BUDGETS.map((b) => [b, 0])) };
  for (const instance of list) {
    await handle.index.switchCommit(instance.base_commit);
    const gold = [...new Set(instance.edit_functions.map((g) => g.split(':')[0]))];
    if (gold.length === 0) continue;
    row.instances++;
    totals.instances++;
    totals.goldFiles += gold.length;
    for (const budget of BUDGETS) {
      const result = await callTool(registry, 'repo_map', { budget_tokens: budget }, { repositories });
      if (result.isError) throw new Error(`${instance.instance_id}: ${result.text}`);
      const shown = new Set(result.data.files.map((f) => f.path));
      const hits = gold.filter((g) => shown.has(g)).length;
      if (hits > 0) {
        row.any[budget]++;
        totals.any[budget]++;
      }
      totals.found[budget] += hits;
      const chance = shown.size / Math.max(1, result.data.totalFiles);
      row.chance[budget] += chance;
      totals.chance[budget] += chance;
    }
    process.stderr.write(`${instance.instance_id} done\n`);
  }
  rows.push(row);
  // A long run's figures so far, in case it is stopped before the table.
  process.stderr.write(`${repo}: ${row.instances} instances, gold file in map @1000 ${row.any[1000]}, @2000 ${row.any[2000]}\n`);
  await repositories.close();
}

const pct = (n, d) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
out('| repository | instances | gold file in map @1000 | chance @1000 | @2000 | chance @2000 |');
out('|---|---:|---:|---:|---:|---:|');
for (const r of rows) {
  out(`| ${r.repo} | ${r.instances} | ${pct(r.any[1000], r.instances)} | ${pct(r.chance[1000], r.instances)} | ${pct(r.any[2000], r.instances)} | ${pct(r.chance[2000], r.instances)} |`);
}
out(
  `| **all** | ${totals.instances} | ${pct(totals.any[1000], totals.instances)} | ${pct(totals.chance[1000], totals.instances)} | ${pct(totals.any[2000], totals.instances)} | ${pct(totals.chance[2000], totals.instances)} |`,
);
out(`gold files found (of ${totals.goldFiles}): @1000 ${totals.found[1000]}, @2000 ${totals.found[2000]}`);
out('("gold file in map": at least one of the instance\'s gold files is among the files the map shows; chance: mean share of ranked files shown)');
if (!values.index) rmSync(work, { recursive: true, force: true });
