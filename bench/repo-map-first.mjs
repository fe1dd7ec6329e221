#!/usr/bin/env node
// The first repo_map of a process: what a CLI `reponav map` pays every run, and an MCP server after
// each change of the index (the file graph is built then, and kept until the index changes). Each
// round starts a fresh Node.js process per build that opens the index (already built), runs the
// no-change check, then times one repo_map with no focus and one with a focus, CPU (user + system
// of the process) and wall. With --previous DIST, another build's first map is timed in the same
// rounds, alternated (each build keeps its own index: their schemas may differ), and the answers'
// texts are compared: the same tree must give the same map.
//
// Usage:
//   node bench/repo-map-first.mjs TREE [--commit REV] [--rounds N] [--previous DIST] [--index DIR]
// DIST is another build's dist/ folder inside a checkout with node_modules/. --index DIR keeps the
// indexes there (one per build) and reuses them. Needs `npm run build` first.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const USAGE = `usage: node bench/repo-map-first.mjs TREE|GITDIR [--commit REV] [--rounds N] [--previous DIST] [--index DIR]
  Times the first repo_map of fresh processes (the file graph build), this build against --previous DIST.`;

const { values, positionals } = parseBenchArgs({
  usage: USAGE,
  options: { commit: { type: 'string' }, rounds: { type: 'string' }, previous: { type: 'string' }, index: { type: 'string' } },
  minPositionals: 1,
  maxPositionals: 1,
});
const rounds = wholeNumber(USAGE, 'rounds', values.rounds) ?? 5;
const target = resolve(positionals[0]);
const HERE = dirname(fileURLToPath(import.meta.url));
const builds = [
  { label: 'this build', dist: join(HERE, '..', 'dist') },
  ...(values.previous ? [{ label: 'previous', dist: resolve(values.previous) }] : []),
];
const work = values.index ? resolve(values.index) : mkdtempSync(join(tmpdir(), 'reponav-map-first-'));
mkdirSync(work, { recursive: true });

// The child: open, no-change check, then the first unfocused map and a focused one, each timed alone.
const CHILD = `
const [dist, target, commit, indexPath] = JSON.parse(process.argv[1]);
const { RepositorySet, callTool, createToolRegistry } = await import(dist + '/reponav.js');
const t0 = performance.now();
const repositories = await RepositorySet.open([{ path: target, commit: commit || undefined, indexPath }]);
await repositories.select().refresh();
const openMs = performance.now() - t0;
const registry = createToolRegistry();
const context = { repositories };
async function timed(args) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const result = await callTool(registry, 'repo_map', args, context);
  const used = process.cpuUsage(cpu);
  if (result.isError) throw new Error(result.text);
  return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000, text: result.text, data: result.data };
}
const first = await timed({});
const focus = [first.data.files[0]?.path, first.data.files[1]?.symbols[0]?.qualifiedName].filter(Boolean);
const focused = await timed({ focus, budget_tokens: 2000 });
const files = repositories.select().index.store.counts();
await repositories.close();
process.stdout.write(JSON.stringify({ openMs, files: files.files, symbols: files.symbols, first: { ms: first.ms, cpuMs: first.cpuMs, text: first.text },
  focused: { ms: focused.ms, cpuMs: focused.cpuMs, text: focused.text }, ranked: first.data.totalFiles }));
`;

const run = (build) =>
  JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, JSON.stringify([pathToFileURL(build.dist).href, target, values.commit ?? '', join(work, `${build.label.replace(/\W+/g, '-')}.db`)])], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 12);
const out = (line) => process.stdout.write(`${line}\n`);

// Index each build's copy first (a build with another schema rebuilds an index it finds).
for (const build of builds) {
  const r = run(build);
  out(`${build.label}: open + refresh ${(r.openMs / 1000).toFixed(1)} s; indexed files ${r.files}, symbols ${r.symbols}; ranked ${r.ranked}`);
}
const samples = builds.map(() => []);
for (let i = 0; i < rounds; i++) builds.forEach((build, b) => samples[b].push(run(build)));

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const max = (xs) => Math.max(...xs);
out(`tree: ${target}${values.commit ? ` @ ${values.commit}` : ''}; ${rounds} rounds, builds alternated; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
out('| build | first map CPU median ms | CPU max ms | wall median ms | wall max ms | focused map CPU median ms | map text | focused text |');
out('|---|---:|---:|---:|---:|---:|---|---|');
const rows = builds.map((build, b) => {
  const s = samples[b];
  const texts = new Set(s.map((r) => hash(r.first.text)));
  const focusedTexts = new Set(s.map((r) => hash(r.focused.text)));
  const row = { cpu: median(s.map((r) => r.first.cpuMs)), texts, focusedTexts };
  out(
    `| ${build.label} | ${row.cpu.toFixed(0)} | ${max(s.map((r) => r.first.cpuMs)).toFixed(0)} | ${median(s.map((r) => r.first.ms)).toFixed(0)} | ${max(s.map((r) => r.first.ms)).toFixed(0)} | ` +
      `${median(s.map((r) => r.focused.cpuMs)).toFixed(0)} | ${[...texts].join(' ')} | ${[...focusedTexts].join(' ')} |`,
  );
  return row;
});
if (rows.length === 2) {
  const same = [...rows[0].texts].join() === [...rows[1].texts].join() && [...rows[0].focusedTexts].join() === [...rows[1].focusedTexts].join();
  out(`this build ÷ previous, first map CPU median: ${(rows[0].cpu / rows[1].cpu).toFixed(3)}; maps identical across builds: ${same ? 'yes' : 'NO'}`);
}
if (!values.index) rmSync(work, { recursive: true, force: true });
