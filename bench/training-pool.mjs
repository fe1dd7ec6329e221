#!/usr/bin/env node
// The learned ranker's training pool: fix-commit instances (bench/history-instances.mjs)
// from many repositories, kept as a manifest of repositories and commits, never as code.
//
// Usage:
//   node bench/training-pool.mjs build --repos DIR --repositories o/n,o/n,... --manifest OUT.json
//        [--out-dir DIR] [--per-repo 150] [--seed 33] [--jobs 2]
//   node bench/training-pool.mjs rebuild --repos DIR --manifest bench/training-pool.json --out POOL.jsonl
//        [--only-repos o/n,...] [--window N] [--jobs 2]
// build: for each repository (a git directory under DIR, as `eval locbench --repos`
//   finds it), history-instances.mjs with --merges, --seed, --max --per-repo at the
//   mirror's HEAD; the manifest records each repository's HEAD, the options and
//   the fix commits accepted (with how each query was formed), and --out-dir
//   gets one JSONL per repository (a repository whose JSONL is already there is
//   read back, not scanned again: an interrupted build resumes).
// rebuild: the same options at the recorded HEAD, restricted to the recorded
//   commits (--commits), so the same mirrors give the same instances; repositories
//   whose HEAD commit is missing are reported and skipped. The pool's JSONL is
//   in manifest order (repository, then history-instances' order: newest first).
//   --window N: per repository only N of its recorded commits, the N consecutive
//   ones (by committer date) spanning the least time, so featurising them moves
//   one index by small steps (the choice reads commit dates only, never the gold).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const execFileAsync = promisify(execFile);
const SCRIPT = new URL('./history-instances.mjs', import.meta.url).pathname;
const USAGE = `usage: node bench/training-pool.mjs build --repos DIR --repositories o/n,... --manifest OUT.json [--out-dir DIR] [--per-repo 150] [--seed 33] [--jobs 2]
       node bench/training-pool.mjs rebuild --repos DIR --manifest FILE --out POOL.jsonl [--only-repos o/n,...] [--window N] [--jobs 2]
(see the header of bench/training-pool.mjs)`;

const { values: opt, positionals } = parseBenchArgs({
  usage: USAGE,
  options: Object.fromEntries(['repos', 'repositories', 'manifest', 'out-dir', 'per-repo', 'seed', 'jobs', 'out', 'only-repos', 'window'].map((n) => [n, { type: 'string' }])),
  minPositionals: 1,
  maxPositionals: 1,
});
// Loaded after the arguments are read, so --help and a bad flag answer without loading the build.
const { findRepoGitDir } = await import('../dist/eval/repo-lookup.js');
const command = positionals[0];
if ((command !== 'build' && command !== 'rebuild') || !opt.repos || !opt.manifest) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const jobs = wholeNumber(USAGE, 'jobs', opt.jobs) ?? 2;
const window = wholeNumber(USAGE, 'window', opt.window);

/**
 * The `size` consecutive commits (by committer date, ties by SHA) spanning the
 * least time; all of them when there are no more than `size`. Reads dates only.
 */
function densestWindow(dated, size) {
  const sorted = [...dated].sort((a, b) => a.date - b.date || (a.sha < b.sha ? -1 : a.sha > b.sha ? 1 : 0));
  if (sorted.length <= size) return sorted;
  let bestStart = 0;
  for (let i = 1; i + size <= sorted.length; i++) {
    if (sorted[i + size - 1].date - sorted[i].date < sorted[bestStart + size - 1].date - sorted[bestStart].date) bestStart = i;
  }
  return sorted.slice(bestStart, bestStart + size);
}

/** Committer dates (seconds) of `shas` in one git call. */
async function commitDates(gitDir, shas) {
  const { stdout } = await execFileAsync('git', ['--git-dir', gitDir, 'log', '--no-walk=unsorted', '--format=%H %ct', ...shas], { maxBuffer: 64 * 1024 * 1024 });
  const dates = new Map();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const [sha, date] = line.split(' ');
    dates.set(sha, Number(date));
  }
  return shas.map((sha) => ({ sha, date: dates.get(sha) ?? 0 }));
}

/** Runs `work` over `items` with at most `jobs` at a time; results in item order. */
async function pool(items, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

/** history-instances.mjs on one repository → its instances (parsed JSONL). */
async function instancesOf(gitDir, repo, args) {
  const { stdout, stderr } = await execFileAsync(process.execPath, [SCRIPT, gitDir, '--repo', repo, '--merges', ...args], { maxBuffer: 1024 * 1024 * 1024 });
  process.stderr.write(stderr);
  return stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

const gitDirOf = (repo) => {
  const found = findRepoGitDir(opt.repos, repo);
  if (!found.ok) throw new Error(found.reason);
  return found.gitDir;
};

if (command === 'build') {
  const repositories = (opt.repositories ?? '').split(',').filter(Boolean);
  const options = { perRepo: wholeNumber(USAGE, 'per-repo', opt['per-repo']) ?? 150, seed: wholeNumber(USAGE, 'seed', opt.seed) ?? 33, merges: true, languages: 'python' };
  if (opt['out-dir']) mkdirSync(opt['out-dir'], { recursive: true });
  const entries = await pool(repositories, async (repo) => {
    const gitDir = gitDirOf(repo);
    const head = (await execFileAsync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'])).stdout.trim();
    const saved = opt['out-dir'] ? join(opt['out-dir'], `${repo.replace('/', '+')}.jsonl`) : null;
    if (saved && existsSync(saved)) {
      const instances = readFileSync(saved, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
      return { repo, head, commits: instances.map((i) => [i.fix_commit, i.query_source]) };
    }
    const instances = await instancesOf(gitDir, repo, ['--rev', head, '--seed', String(options.seed), '--max', String(options.perRepo)]);
    if (saved) writeFileSync(saved, instances.map((i) => JSON.stringify(i)).join('\n') + '\n');
    return { repo, head, commits: instances.map((i) => [i.fix_commit, i.query_source]) };
  });
  writeFileSync(opt.manifest, JSON.stringify({ options, repositories: entries }, null, 1) + '\n');
  const total = entries.reduce((n, e) => n + e.commits.length, 0);
  process.stderr.write(`${total} instances from ${entries.length} repositories → ${opt.manifest}\n`);
} else {
  if (!opt.out) {
    process.stderr.write(`rebuild needs --out\n\n${USAGE}\n`);
    process.exit(2);
  }
  const manifest = JSON.parse(readFileSync(opt.manifest, 'utf8'));
  const only = opt['only-repos']?.split(',');
  const entries = manifest.repositories.filter((e) => !only || only.includes(e.repo));
  const scratch = mkdtempSync(join(tmpdir(), 'reponav-pool-'));
  try {
    const lists = await pool(entries, async (entry, i) => {
      const commitsFile = join(scratch, `${i}.txt`);
      let gitDir;
      try {
        gitDir = gitDirOf(entry.repo);
        await execFileAsync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${entry.head}^{commit}`]);
      } catch {
        process.stderr.write(`${entry.repo}: no git directory with commit ${entry.head} under --repos; skipped\n`);
        return [];
      }
      let shas = entry.commits.map(([sha]) => sha);
      if (window !== undefined) shas = densestWindow(await commitDates(gitDir, shas), window).map((c) => c.sha);
      writeFileSync(commitsFile, shas.join('\n'));
      const args = ['--rev', entry.head, '--commits', commitsFile, '--max', String(shas.length)];
      const instances = await instancesOf(gitDir, entry.repo, args);
      if (instances.length !== shas.length) process.stderr.write(`${entry.repo}: ${instances.length} of ${shas.length} chosen recorded commits rebuilt\n`);
      return instances;
    });
    const all = lists.flat();
    writeFileSync(opt.out, all.map((i) => JSON.stringify(i)).join('\n') + (all.length ? '\n' : ''));
    process.stderr.write(`${all.length} instances → ${opt.out}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
