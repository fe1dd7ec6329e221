/**
 * The model reranker's cost per instance in tokens, measured without a
 * model: the scripted endpoint of the tests (test/helpers/scripted-llm-server.ts)
 * answers every rerank window with its candidates in retrieval order and no
 * `usage`, so the real client counts each real prompt in o200k tokens
 * itself; the built CLI runs `eval locbench --mode rerank` against it. The
 * predictions then equal the retrieval run's (nothing is reordered), which
 * the printed scores show. Accuracy is not measured: that needs a real model.
 *
 * Not a test (outside vitest's include); run `npm run build`, then
 *   RERANK_COST_INSTANCES=$BENCH/locbench-dev.jsonl RERANK_COST_REPOS=$MIRRORS \
 *   RERANK_COST_OUT=runs/rerank-cost npx vitest run --config bench/rerank-cost.vitest.config.ts
 * with RERANK_COST_CONFIG (more --config-json keys, e.g. '{"window": 20}'),
 * RERANK_COST_ONLY (comma-separated instance ids) and REPONAV_CACHE_DIR.
 * The run resumes like any `eval locbench` run; the figures are printed from
 * its predictions (`meta.timings.rerank*`).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { it } from 'vitest';
import { startScriptedLlmServer } from '../test/helpers/scripted-llm-server.js';

const env = (name: string): string | undefined => process.env[name];
const need = (name: string): string => {
  const value = env(name);
  if (value === undefined) throw new Error(`set ${name}`);
  return value;
};

/** p in [0, 1], linear interpolation. */
function quantile(values: number[], p: number): number {
  const xs = [...values].sort((a, b) => a - b);
  const i = (xs.length - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.min(lo + 1, xs.length - 1);
  return xs[lo]! + (xs[hi]! - xs[lo]!) * (i - lo);
}

it('measures the reranker prompt tokens per instance', async () => {
  const out = resolve(need('RERANK_COST_OUT'));
  const server = await startScriptedLlmServer();
  server.setDefault((request) => {
    const n = [...request.prompt.matchAll(/^\[(\d+)\] \S+/gm)].length;
    return { text: Array.from({ length: n }, (_, i) => `[${i + 1}]`).join(' > '), noUsage: true };
  });
  const config = { model: 'openai-compatible:scripted-model', indexDir: join(out, 'indexes'), traceDir: join(out, 'traces'), ...JSON.parse(env('RERANK_COST_CONFIG') ?? '{}') };
  const args = ['dist/cli/main.js', 'eval', 'locbench', '--mode', 'rerank', '--instances', need('RERANK_COST_INSTANCES'), '--repos', need('RERANK_COST_REPOS'), '--out', out, '--config-json', JSON.stringify(config)];
  if (env('RERANK_COST_ONLY')) args.push('--only', env('RERANK_COST_ONLY')!);
  try {
    // Asynchronous: the endpoint answers from this process while the CLI runs.
    const code = await new Promise<number | null>((done, fail) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'scripted' } });
      child.on('error', fail);
      child.on('close', done);
    });
    if (code !== 0) throw new Error(`eval locbench exited with ${code}`);
  } finally {
    await server.close();
  }
  const timings = readFileSync(join(out, 'predictions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { meta: { timings: Record<string, number> } }).meta.timings);
  const rows = ['rerankCalls', 'rerankInputTokens', 'rerankOutputTokens', 'rerankTotalTokens', 'rerankCandidates'].map((key) => {
    const xs = timings.map((t) => t[key] ?? 0);
    const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    return `| ${key} | ${mean.toFixed(1)} | ${quantile(xs, 0.5).toFixed(0)} | ${quantile(xs, 0.95).toFixed(0)} | ${Math.min(...xs)} | ${Math.max(...xs)} |`;
  });
  process.stdout.write(`\n${timings.length} instances (${out})\n\n| per instance | mean | p50 | p95 | min | max |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`);
});
