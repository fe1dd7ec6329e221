#!/usr/bin/env node
// Block-max MaxScore against the exhaustive block scan on the BM25 queries of real searches:
// each text is searched once (the default pipeline, postings scoring), every cut query the
// search scored from postings is captured (exact-bm25.ts' observeScoredQueries) and then
// scored again by both methods, alternated --runs times; the answers (chunk ids, keys and
// scores, in order) are compared to the bit and the scoring times summed. Prints the texts
// whose queries differ (exit 1 if any), the queries compared, and the two methods' CPU.
//
// Usage: node bench/max-score-bench.mjs TREE (--locbench FILE.jsonl [--locbench-repo OWNER/NAME] | --queries FILE.json)
//                                       [--index PATH] [--runs N] [--dist DIR]
// --index PATH reuses (or builds there) the tree's index; by default a fresh one in a temp folder.
// Needs `npm run build` first.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: node bench/max-score-bench.mjs TREE (--locbench FILE.jsonl [--locbench-repo OWNER/NAME] | --queries FILE.json) [--index PATH] [--runs N] [--dist DIR]
needs \`npm run build\``;
const s = { type: 'string' };
const { values: opt, positionals } = parseBenchArgs({
  usage: USAGE,
  options: { locbench: s, 'locbench-repo': s, queries: s, index: s, runs: s, dist: s },
  minPositionals: 1,
  maxPositionals: 1,
});
if (!opt.locbench === !opt.queries) {
  console.error(`give one of --locbench and --queries\n${USAGE}`);
  process.exit(2);
}
const runs = wholeNumber(USAGE, 'runs', opt.runs ?? '3');
const dist = resolve(opt.dist ?? join(PROJECT, 'dist'));
const at = (path) => pathToFileURL(join(dist, path)).href;
const { RepositoryIndex } = await import(at('index/repository-index.js'));
// Builds before the tuning knobs left searchRepository's API take them there; builds
// before they were nested by stage (no retrieve/tuning/schema.js) take the flat key.
const searchModule = await import(at('retrieve/search-repository.js'));
const searchWithTuning = searchModule.searchWithTuning ?? searchModule.searchRepository;
const nested = existsSync(join(dist, 'retrieve/tuning/schema.js'));
const postingsScorer = nested ? { lexical: { scorer: 'postings' } } : { lexicalScorer: 'postings' };
const { observeScoredQueries, scoreQuery } = await import(at('index/lexical/exact-bm25.js'));

const texts = opt.queries
  ? JSON.parse(readFileSync(opt.queries, 'utf8'))
  : readFileSync(opt.locbench, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line))
      .filter((row) => !opt['locbench-repo'] || row.repo === opt['locbench-repo'])
      .map((row) => row.problem_statement);
const work = opt.index ? null : mkdtempSync(join(tmpdir(), 'reponav-max-score-bench-'));
const indexPath = opt.index ? resolve(opt.index) : join(work, 'index.db');
const tree = resolve(positionals[0]);
const loadBefore = loadavg();
const repository = await RepositoryIndex.open(tree, { indexPath });
const bits = (x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);
const same = (a, b) => bits(a.ids).equals(bits(b.ids)) && bits(a.keys).equals(bits(b.keys)) && bits(a.scores).equals(bits(b.scores));
const cpuMs = (f) => {
  const before = process.cpuUsage();
  const answer = f();
  const used = process.cpuUsage(before);
  return [answer, (used.user + used.system) / 1000];
};
try {
  await repository.refresh();
  let differing = 0;
  let compared = 0;
  const ms = { blocks: 0, 'max-score': 0 };
  for (const [i, text] of texts.entries()) {
    const captured = [];
    observeScoredQueries((query) => captured.push(query));
    await searchWithTuning(repository.store, text, postingsScorer);
    observeScoredQueries(null);
    let differs = false;
    for (const q of captured) {
      if (!(Number.isInteger(q.limit) && q.limit < q.corpus.ids.length && q.weights.every((w) => w >= 0))) continue;
      compared++;
      for (let r = 0; r < runs; r++) {
        // Alternated, so each method meets the other's warm caches and scratch.
        const order = r % 2 === 0 ? ['blocks', 'max-score'] : ['max-score', 'blocks'];
        const answers = {};
        for (const method of order) {
          const [answer, took] = cpuMs(() => scoreQuery(q.corpus, q.terms, q.weights, q.limit, q.allowed, method));
          answers[method] = answer;
          if (r > 0 || runs === 1) ms[method] += took;
        }
        if (!same(answers.blocks, answers['max-score'])) differs = true;
      }
    }
    if (differs) {
      differing++;
      console.log(`text ${i + 1}: the two methods' answers differ`);
    }
  }
  console.log(`# max-score-bench ${tree}: ${texts.length} texts, ${compared} cut queries compared, load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`texts whose answers differ: ${differing} of ${texts.length}`);
  console.log(
    `scoring CPU (runs 2–${runs} summed): block scan ${ms.blocks.toFixed(0)} ms, MaxScore ${ms['max-score'].toFixed(0)} ms, MaxScore ÷ block scan ${(ms['max-score'] / ms.blocks).toFixed(2)}`,
  );
  process.exitCode = differing > 0 ? 1 : 0;
} finally {
  repository.close();
  if (work) rmSync(work, { recursive: true, force: true });
}
