#!/usr/bin/env node
/**
 * Stress and fault suite for the index: many processes on one index,
 * kill -9 mid-index and mid-commit-switch, a full disk, a read-only cache
 * folder, a truncated or garbage index file, a repository edited while it is
 * indexed; once per pass, the team server's fault cases that wait out real
 * leases (test/faults/, vitest.faults.config.ts). Each run ends with the
 * answers the next command would give (probe.mjs) compared with a clean
 * index's answers of the same tree or commit.
 *
 *   npm run build && node scripts/stress/run.mjs [--runs N] [--only a,b] [--seed S]
 *
 * Prints, per scenario: runs, failures (a process that crashed, printed a stack
 * trace or a wrong answer, or whose error was not one sentence) and lost/wrong
 * (the probe after the run differs from the clean answers). A process still
 * running after 180 s is killed and counted as a failure (hung); a set-up step
 * that fails stops the suite. Exits 1 when any
 * run failed. Scenarios that need root (tmpfs, read-only bind mounts) are
 * skipped with a message elsewhere.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git, makeRepository, MODULES, writeModule } from './fixture-repository.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(HERE, '../../dist/cli/main.js');
const PROBE = join(HERE, 'probe.mjs');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const USAGE = `usage: node scripts/stress/run.mjs [--runs N] [--only a,b] [--seed S]
  --runs N     runs per scenario, round-robin over the scenarios (default 20); SIGINT/SIGTERM stops
               early and prints the figures so far
  --only a,b   only these scenarios: concurrent, kill-index, kill-switch, disk-full, readonly-cache,
               damaged, edit-while-indexing, team-faults (once per pass: test/faults/ under vitest,
               needs PostgreSQL as npm test does)
  --seed S     seed of the random choices (default: from the clock; printed on the first line)
Needs a build (npm run build). disk-full and readonly-cache need root (tmpfs, bind mounts).`;
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const KNOWN = new Set(['--runs', '--only', '--seed']);
for (let i = 0; i < args.length; i += 2) {
  if (!KNOWN.has(args[i]) || args[i + 1] === undefined) {
    console.error(`${args[i]}${KNOWN.has(args[i]) ? ' needs a value' : ' is not an option'}.\n${USAGE}`);
    process.exit(2);
  }
}
const RUNS = Number(option('--runs', '20'));
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`--runs must be a whole number, at least 1.\n${USAGE}`);
  process.exit(2);
}
const ONLY = option('--only', '')?.split(',').filter(Boolean) ?? [];
let seed = Number(option('--seed', String(Date.now() % 100000)));
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (n) => Math.floor(random() * n);

if (!existsSync(CLI)) {
  console.error(`${CLI} is missing: run \`npm run build\` first.`);
  process.exit(2);
}
const WORK = mkdtempSync(join(tmpdir(), 'reponav-stress-'));

// ---------------------------------------------------------------- processes

function cliEnv(cache) {
  const env = { ...process.env, REPONAV_CACHE_DIR: cache, FORCE_COLOR: '0' };
  delete env.NODE_OPTIONS;
  return env;
}

/** A CLI process of this suite that runs longer than this has hung (the slowest finish in seconds). */
const HANG_MS = 180_000;

/**
 * Starts the CLI; resolves with its exit and output. `kill()` sends SIGKILL. A
 * process still running after HANG_MS is killed and reported as hung (its result
 * says so in stderr), so a hang fails the run instead of stalling the suite.
 */
function start(argv, cache) {
  const child = spawn(process.execPath, [CLI, ...argv], { env: cliEnv(cache), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let hung = false;
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const watchdog = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, HANG_MS);
  const done = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      const note = hung ? `\nhung: still running after ${HANG_MS / 1000} s (reponav ${argv.join(' ')}), killed` : '';
      resolve({ code: hung ? null : code, signal: hung ? 'HUNG' : signal, stdout, stderr: stderr + note });
    }),
  );
  return { done, kill: () => child.kill('SIGKILL') };
}

const run = (argv, cache) => start(argv, cache).done;

/** The probe's answers (it refreshes first, as the next command would). */
function probe(root, cache, commit) {
  const result = spawnSync(process.execPath, [PROBE, root, ...(commit ? ['--commit', commit] : [])], { env: cliEnv(cache), encoding: 'utf8' });
  if (result.status !== 0) return { error: `probe exit ${result.status}: ${result.stderr.slice(0, 400)}` };
  return JSON.parse(result.stdout);
}

const references = new Map();
/** A clean index's answers for a tree (keyed by its content) or commit. */
function reference(root, commit) {
  const key = commit ?? treeKey(root);
  if (!references.has(key)) references.set(key, probe(root, mkdtempSync(join(WORK, 'clean-')), commit));
  return references.get(key);
}

function treeKey(root) {
  return readdirSync(join(root, 'pkg'))
    .sort()
    .map((f) => `${f}:${readFileSync(join(root, 'pkg', f), 'utf8').length}:${readFileSync(join(root, 'pkg', f), 'utf8')}`)
    .join('|');
}

/** A process result is acceptable when it succeeded, was killed by us, or failed with one sentence (exit 1). */
function cleanExit(result, { killed = false } = {}) {
  if (killed && result.signal === 'SIGKILL') return null;
  if (/\n\s+at |SqliteError|database is locked/.test(result.stderr)) return `stack trace or raw SQLite error: ${result.stderr.slice(0, 300)}`;
  if (result.code === 0) return null;
  const lines = result.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('[reponav]'));
  if (result.code === 1 && lines.length === 1 && lines[0].startsWith('error: ')) return null;
  return `exit ${result.code} signal ${result.signal}: ${result.stderr.slice(0, 300)}`;
}

function same(actual, expected) {
  if (JSON.stringify(actual) === JSON.stringify(expected)) return null;
  if (actual.error || expected.error) return actual.error ?? `reference: ${expected.error}`;
  for (const key of Object.keys(expected)) {
    const [a, b] = [actual[key], expected[key]];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (Array.isArray(a) && Array.isArray(b)) {
      const i = a.findIndex((x, n) => x !== b[n]);
      return `${key} differ at ${i}: ${a[i] ?? '(none)'} vs clean ${b[i] ?? '(none)'} (${a.length} vs ${b.length})`;
    }
    return `${key} differ: ${JSON.stringify(a)} vs clean ${JSON.stringify(b)}`;
  }
  return 'answers differ';
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- scenarios

const repo = makeRepository(WORK);
const checkout = (commit) => git(repo.root, 'checkout', '-q', '-f', commit);
checkout(repo.commits.b);

/** A cache holding a complete index of the working tree at commit b (copied per run). */
const baseline = mkdtempSync(join(WORK, 'baseline-'));
/** A set-up step: anything but a clean exit stops the suite (the scenarios would compare against a broken baseline). */
async function setUp(argv, cache) {
  const result = await run(argv, cache);
  const problem = cleanExit(result) ?? (result.code === 0 ? null : `exit ${result.code}`);
  if (problem) {
    console.error(`set-up step \`reponav ${argv.join(' ')}\` failed: ${problem}`);
    process.exit(1);
  }
}
await setUp(['index', repo.root, '-q'], baseline);
await setUp(['index', repo.root, '-q', '--commit', repo.commits.a], baseline);
let coldMs = Date.now();
await setUp(['index', repo.root, '-q', '--workers', '0'], mkdtempSync(join(WORK, 'timing-')));
coldMs = Date.now() - coldMs;

function copyBaseline() {
  const cache = mkdtempSync(join(WORK, 'cache-'));
  cpSync(baseline, cache, { recursive: true });
  return cache;
}

function indexFile(cache, name = 'worktree.db') {
  for (const dir of readdirSync(cache)) if (existsSync(join(cache, dir, name))) return join(cache, dir, name);
  throw new Error(`no ${name} under ${cache}`);
}

const scenarios = {
  /** Two indexers, two lookups and a status at once on a cold index. */
  async concurrent() {
    const cache = mkdtempSync(join(WORK, 'cache-'));
    const results = await Promise.all([
      run(['index', repo.root, '-q'], cache),
      run(['index', repo.root, '-q', '--workers', '0'], cache),
      run(['find', 'function', 'compute_value_7', '--repo', repo.root], cache),
      run(['search', 'compute_value_33', '--repo', repo.root, '--format', 'file-only'], cache),
      run(['status', repo.root], cache),
    ]);
    const failures = results.map((r) => cleanExit(r)).filter(Boolean);
    if (results[2].code === 0 && !/pkg\/mod_7\.py:8-\d+ compute_value_7/.test(results[2].stdout)) failures.push(`wrong find: ${results[2].stdout}`);
    if (results[3].code === 0 && !/^1\. pkg\/mod_33\.py /m.test(results[3].stdout)) failures.push(`wrong search: ${results[3].stdout.slice(0, 200)}`);
    return { failures, lost: same(probe(repo.root, cache), reference(repo.root)) };
  },

  /** kill -9 at a random point of a cold index. */
  async 'kill-index'() {
    const cache = mkdtempSync(join(WORK, 'cache-'));
    const child = start(['index', repo.root, '-q', ...(random() < 0.5 ? ['--workers', '0'] : [])], cache);
    await sleep(pick(coldMs * 1.2));
    child.kill();
    const result = await child.done;
    return { failures: [cleanExit(result, { killed: true })].filter(Boolean), lost: same(probe(repo.root, cache), reference(repo.root)) };
  },

  /** kill -9 at a random point while the commit index moves from a to b. */
  async 'kill-switch'() {
    const cache = copyBaseline();
    const child = start(['index', repo.root, '-q', '--commit', repo.commits.b], cache);
    await sleep(pick(900));
    child.kill();
    const result = await child.done;
    const lost = same(probe(repo.root, cache, repo.commits.b), reference(repo.root, repo.commits.b));
    return { failures: [cleanExit(result, { killed: true })].filter(Boolean), lost };
  },

  /** The cache folder on a tiny tmpfs that fills up mid-index; then space is freed. */
  async 'disk-full'(state) {
    if (!state.mount) {
      const mount = join(WORK, 'tmpfs');
      mkdirSync(mount);
      const result = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]);
      if (result.status !== 0) return { skip: `cannot mount a tmpfs (${String(result.stderr).trim() || 'not root'})` };
      state.mount = mount;
      state.cleanup = () => spawnSync('umount', [mount]);
    }
    rmSync(join(state.mount, 'cache'), { recursive: true, force: true });
    rmSync(join(state.mount, 'filler'), { force: true });
    const cache = join(state.mount, 'cache');
    mkdirSync(cache);
    // Leave between 0 and 1.5 MB free (a complete index of the fixture takes about 1 MB).
    const free = Number(execFileSync('df', ['-B1', '--output=avail', state.mount], { encoding: 'utf8' }).split('\n')[1]);
    writeFileSync(join(state.mount, 'filler'), Buffer.alloc(Math.max(0, free - pick(1_500_000))));
    const result = await run(['index', repo.root, '-q'], cache);
    const failures = [cleanExit(result)].filter(Boolean);
    rmSync(join(state.mount, 'filler'));
    return { failures, lost: same(probe(repo.root, cache), reference(repo.root)) };
  },

  /** A complete index in a cache folder mounted read-only: commands answer or say why; nothing changes. */
  async 'readonly-cache'() {
    const cache = copyBaseline();
    const file = indexFile(cache);
    const before = readFileSync(file);
    const bind = spawnSync('mount', ['--bind', cache, cache]);
    if (bind.status !== 0) return { skip: `cannot bind-mount (${String(bind.stderr).trim() || 'not root'})` };
    const failures = [];
    try {
      if (spawnSync('mount', ['-o', 'remount,ro,bind', cache]).status !== 0) return { skip: 'cannot remount read-only' };
      const results = await Promise.all([
        run(['find', 'function', 'compute_value_7', '--repo', repo.root], cache),
        run(['status', repo.root], cache),
        run(['index', repo.root, '-q'], cache),
      ]);
      for (const r of results) {
        const problem = cleanExit(r);
        if (problem) failures.push(problem);
      }
      if (results[0].code === 0 && !results[0].stdout.includes('pkg/mod_7.py:8-')) failures.push(`wrong find: ${results[0].stdout}`);
      if (!readFileSync(file).equals(before)) failures.push('the index file changed on a read-only mount');
    } finally {
      spawnSync('umount', [cache]);
    }
    return { failures, lost: same(probe(repo.root, cache), reference(repo.root)) };
  },

  /** The index file truncated at a random length or overwritten with garbage; the next command must answer right. */
  async damaged() {
    const cache = copyBaseline();
    const file = indexFile(cache);
    const size = statSync(file).size;
    const how = pick(3);
    if (how === 0) truncateSync(file, pick(size));
    else if (how === 1) writeFileSync(file, Buffer.from(Array.from({ length: size }, () => pick(256))));
    else {
      const bytes = readFileSync(file);
      const at = pick(size);
      for (let i = at; i < Math.min(size, at + 4096 * (1 + pick(4))); i++) bytes[i] = pick(256);
      writeFileSync(file, bytes);
    }
    // The last kind (a stretch of pages overwritten in place) is only found by a check: index --check.
    const result = await run(how === 2 ? ['index', repo.root, '-q', '--check'] : ['find', 'function', 'compute_value_7', '--repo', repo.root], cache);
    const failures = [cleanExit(result)].filter(Boolean);
    if (how !== 2 && result.code === 0 && !result.stdout.includes('pkg/mod_7.py:8-')) failures.push(`wrong find after damage ${how}: ${result.stdout}`);
    return { failures, lost: same(probe(repo.root, cache), reference(repo.root)) };
  },

  /** Files edited, added and deleted while a cold index runs; a later refresh must match a clean index of the final tree. */
  async 'edit-while-indexing'() {
    const root = join(WORK, `edit-${pick(1e9)}`);
    cpSync(repo.root, root, { recursive: true });
    const cache = mkdtempSync(join(WORK, 'cache-'));
    const child = start(['index', root, '-q', ...(random() < 0.5 ? ['--workers', '0'] : [])], cache);
    for (let k = 0; k < 4; k++) {
      await sleep(pick(coldMs / 3));
      const i = pick(MODULES);
      if (k === 3) rmSync(join(root, 'pkg', `mod_${i}.py`), { force: true });
      else writeModule(root, i, `\ndef edited_${k}_${i}():\n    return ${k}\n`);
    }
    writeModule(root, 100 + pick(10));
    const result = await child.done;
    const failures = [cleanExit(result)].filter(Boolean);
    const lost = same(probe(root, cache), probe(root, mkdtempSync(join(WORK, 'clean-'))));
    rmSync(root, { recursive: true, force: true });
    return { failures, lost };
  },

  // The team server's fault cases that wait out real leases and heartbeats (test/faults/, vitest), once per pass:
  // they are deterministic and take a minute or more, so repeating them adds time, not coverage.
  async 'team-faults'(state) {
    if (state.ran) return { once: true };
    state.ran = true;
    const vitest = resolve(HERE, '../../node_modules/vitest/vitest.mjs');
    const result = await new Promise((resolveRun) => {
      const child = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.faults.config.ts'], { cwd: resolve(HERE, '../..'), env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
      child.on('close', (code) => resolveRun({ code, out }));
    });
    const failed = result.out.split('\n').filter((line) => /^\s*(×|FAIL)/.test(line));
    return { failures: result.code === 0 ? [] : [`vitest --config vitest.faults.config.ts exit ${result.code}: ${(failed.join(' ') || result.out.slice(-400)).trim()}`], lost: null };
  },
};

// ---------------------------------------------------------------- main

const chosen = Object.keys(scenarios).filter((name) => ONLY.length === 0 || ONLY.includes(name));
console.log(`reponav stress: ${RUNS} runs per scenario, seed ${seed}, cold index of the fixture ${coldMs} ms, work folder ${WORK}`);
const tallies = new Map(chosen.map((name) => [name, { state: {}, runs: 0, failures: 0, lost: 0, skipped: null, examples: [], ms: 0 }]));

function report(final) {
  console.log(final ? '--- final' : `--- after ${Math.max(...[...tallies.values()].map((t) => t.runs))} rounds`);
  for (const [name, t] of tallies) {
    const line = t.skipped
      ? `${name.padEnd(20)} SKIPPED: ${t.skipped}`
      : `${name.padEnd(20)} runs ${String(t.runs).padStart(4)}  failures ${String(t.failures).padStart(3)}  lost/wrong ${String(t.lost).padStart(3)}  (${(t.ms / Math.max(1, t.runs) / 1000).toFixed(1)} s/run)`;
    console.log(line);
    for (const example of final ? t.examples : t.examples.slice(0, 1)) console.log(`    e.g. ${example.replace(/\n/g, ' ').slice(0, 400)}`);
  }
}

// A stopped pass still unmounts what it mounted.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const t of tallies.values()) t.state.cleanup?.();
    report(true);
    process.exit(130);
  });
}

// Round-robin over the scenarios, so a pass stopped early still has figures for each.
for (let round = 0; round < RUNS; round++) {
  for (const [name, t] of tallies) {
    if (t.skipped) continue;
    const started = Date.now();
    let outcome;
    try {
      outcome = await scenarios[name](t.state);
    } catch (error) {
      outcome = { failures: [`scenario threw: ${error.stack ?? error}`], lost: null };
    }
    if (outcome.skip) {
      t.skipped = outcome.skip;
      continue;
    }
    if (outcome.once) continue;
    t.ms += Date.now() - started;
    t.runs++;
    if (outcome.failures.length) t.failures++;
    if (outcome.lost) t.lost++;
    for (const problem of [...outcome.failures, outcome.lost].filter(Boolean)) if (t.examples.length < 3) t.examples.push(problem);
  }
  if ((round + 1) % 10 === 0 && round + 1 < RUNS) report(false);
}
for (const t of tallies.values()) t.state.cleanup?.();
report(true);
rmSync(WORK, { recursive: true, force: true });
process.exit([...tallies.values()].some((t) => t.failures || t.lost) ? 1 : 0);
