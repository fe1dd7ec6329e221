// What a program pays to import a library entry: `import(ENTRY)` in fresh Node.js
// processes, this build's entry alternated with another build's in the same run
// (--previous DIST), median wall time of the import and the number of ES modules
// it loads (bench/module-count-hook.mjs).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const USAGE = `
Usage: node bench/import-bench.mjs [--entry reponav.js] [--previous DIST] [--runs 9]

  --entry FILE     the entry under dist/ (default reponav.js; reponav-mcp.js, reponav-agents.js, ...)
  --previous DIST  another build's dist/ folder: its entry is imported alternately in the same run
  --runs N         imports per build (default 9)
`;
const { values } = parseBenchArgs({ usage: USAGE, options: { entry: { type: 'string' }, previous: { type: 'string' }, runs: { type: 'string' } } });
const HERE = dirname(fileURLToPath(import.meta.url));
const entry = values.entry ?? 'reponav.js';
const runs = wholeNumber(USAGE, 'runs', values.runs) ?? 9;
const builds = [['this build', join(HERE, '..', 'dist', entry)], ...(values.previous ? [['previous', join(resolve(values.previous), entry)]] : [])];
const work = mkdtempSync(join(tmpdir(), 'reponav-import-bench-'));

const importMs = (file) =>
  Number(execFileSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`], { encoding: 'utf8' }));
function moduleCount(file) {
  const log = join(work, 'modules.log');
  rmSync(log, { force: true });
  execFileSync(process.execPath, ['--import', join(HERE, 'module-count-hook.mjs'), '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)})`], { env: { ...process.env, REPONAV_MODULE_LOG: log } });
  return new Set(readFileSync(log, 'utf8').trim().split('\n')).size;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const times = builds.map(() => []);
for (let i = 0; i < runs; i++) builds.forEach(([, file], b) => times[b].push(importMs(file)));
const rows = builds.map(([label, file], b) => ({ label, modules: moduleCount(file), ms: median(times[b]) }));
for (const row of rows) console.log(`${row.label}: import('${entry}') ${row.modules} modules, median ${row.ms.toFixed(0)} ms over ${runs} processes`);
if (rows.length === 2) console.log(`this build ÷ previous: modules ${(rows[0].modules / rows[1].modules).toFixed(2)}, time ${(rows[0].ms / rows[1].ms).toFixed(2)}`);
rmSync(work, { recursive: true, force: true });
