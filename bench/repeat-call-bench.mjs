#!/usr/bin/env node
// Repeated calls with nothing changed: in one long-lived process (an MCP
// server, an agent), each call refreshes the index, then searches. A refresh
// that finds nothing to change must write nothing, so the calls after the
// first reuse everything derived from the index. Printed: the CPU (user +
// system) of each call, for this build and, with --previous DIST, an earlier
// build in the same run (builds alternated, each on its own copy of the index).
//
// Usage: node bench/repeat-call-bench.mjs GITDIR --commit REV --index FILE --query FILE [--calls N] [--rounds N] [--previous DIST]
// --index is copied (with its -wal) for every build and round, so it is never changed; --query is a text file.
// Useful on a commit whose blobs a partial mirror lacks, or a tree with files that fail to parse.
// Needs `npm run build`.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'usage: node bench/repeat-call-bench.mjs GITDIR --commit REV --index FILE --query FILE [--calls N] [--rounds N] [--previous DIST]';
const { values: opt, positionals } = parseBenchArgs({
  usage: USAGE,
  options: {
    commit: { type: 'string' },
    index: { type: 'string' },
    query: { type: 'string' },
    calls: { type: 'string' },
    rounds: { type: 'string' },
    previous: { type: 'string' },
  },
  minPositionals: 1,
  maxPositionals: 1,
});
for (const name of ['commit', 'index', 'query']) {
  if (!opt[name]) {
    console.error(`--${name} is required; ${USAGE}`);
    process.exit(2);
  }
}
if (!existsSync(resolve(opt.index))) {
  console.error(`no index at ${opt.index}; build one first (reponav index --commit REV, or bench/tune-loro.mjs --index-dir)`);
  process.exit(2);
}
const calls = wholeNumber(USAGE, 'calls', opt.calls) ?? 6;
const rounds = wholeNumber(USAGE, 'rounds', opt.rounds) ?? 2;
const query = readFileSync(resolve(opt.query), 'utf8');
const builds = [{ label: 'this build', dist: join(PROJECT, 'dist') }, ...(opt.previous ? [{ label: `previous (${opt.previous})`, dist: resolve(opt.previous) }] : [])];
for (const build of builds) {
  const at = (path) => pathToFileURL(join(build.dist, path)).href;
  build.RepositoryIndex = (await import(at('index/repository-index.js'))).RepositoryIndex;
  build.searchRepository = (await import(at('retrieve/search-repository.js'))).searchRepository;
  build.later = [];
}
const work = mkdtempSync(join(tmpdir(), 'reponav-repeat-call-'));
const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(`# repeat-call-bench: ${resolve(positionals[0])} @ ${opt.commit}  calls=${calls} rounds=${rounds}`);
console.log(`cores ${availableParallelism()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
try {
  for (let round = 0; round < rounds; round++) {
    for (const build of builds) {
      const indexPath = join(work, `index-${round}-${builds.indexOf(build)}.db`);
      copyFileSync(resolve(opt.index), indexPath);
      if (existsSync(`${resolve(opt.index)}-wal`)) copyFileSync(`${resolve(opt.index)}-wal`, `${indexPath}-wal`);
      const repository = await build.RepositoryIndex.open(resolve(positionals[0]), { commit: opt.commit, indexPath });
      const line = [];
      try {
        for (let call = 0; call < calls; call++) {
          const since = process.cpuUsage();
          await repository.refresh();
          await build.searchRepository(repository.store, query);
          const ms = cpuMs(since);
          line.push(ms.toFixed(0));
          if (call > 0) build.later.push(ms);
        }
      } finally {
        repository.close();
      }
      console.log(`round ${round + 1}, ${build.label}: CPU per call ${line.join(' ')} ms`);
    }
  }
  console.log('');
  for (const build of builds) console.log(`${build.label}: calls after the first, CPU median ${median(build.later).toFixed(1)} ms, max ${Math.max(...build.later).toFixed(1)} ms (n=${build.later.length})`);
  if (builds.length === 2) console.log(`this build ÷ previous (median): ${(median(builds[0].later) / median(builds[1].later)).toFixed(2)}`);
  console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
