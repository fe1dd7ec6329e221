#!/usr/bin/env node
// LocBench-shaped instances from a repository's own git history, to measure
// localization on repositories nobody tuned on (issue #14) with no model and
// no issue tracker.
//
// THESE ARE COMMIT-MESSAGE PROXIES, NOT ISSUE TEXTS. The query is the fix
// commit's message: shorter than an issue, written by the person who fixed the
// bug (it often names the function they changed), and the gold is what that
// commit touched. Figures are NOT comparable to LocBench's; use them only to
// compare builds or settings with each other on unseen repositories.
//
// Usage:
//   node bench/history-instances.mjs GIT_DIR [--repo owner/name] [--out FILE]
//     [--max N] [--seed S] [--since DATE] [--until DATE] [--rev REF] [--merges] [--commits FILE]
//     [--languages python] [--max-files 3] [--max-gold 10] [--min-words 3]
// GIT_DIR: any git directory (a bare mirror works) or a clone. --repo defaults
// to the folder name when it reads `owner+name` or `owner__name` (the layouts
// `eval locbench --repos` looks up; `…/owner+name/repo` counts too).
// Without --out the JSONL goes to stdout. On stderr: how many commits each rule
// skipped (rule 2 counts every commit; later rules only the candidates examined
// before --max was reached), and how many queries name a gold function.
//
// Selection, in this order (every rule is applied to every commit):
// 1. Commits: `git log --first-parent --no-merges REV` (REV default HEAD),
//    optionally --since/--until (git's date syntax), newest first; commits
//    authored by a bot (author name ending in `[bot]`) are skipped. With --merges the
//    first-parent pull-request merges (`Merge pull request #N from …`) are
//    candidates too, diffed against their first parent (other merges are skipped:
//    `branch merge`). --commits FILE keeps only the commits it lists (one SHA a
//    line or space-separated: how bench/training-pool.mjs rebuilds a manifest).
// 2. Fix message: after dropping `*-by:` trailer lines and body lines starting
//    with `* ` (the branch's commit subjects a GitHub squash merge lists), the message matches
//    FIX_WORDS (fix, fixes, fixed, fixing, bug, bugs, bugfix, hotfix as whole
//    words, any case) or ISSUE_REF (`issue #N`, `issues #N`, `closes #N`,
//    `resolves #N` and their variants). Subjects starting with `Revert`, and
//    subjects naming maintenance (NOT_A_BUG: typo, lint, mypy, typing, docs,
//    docstring, comment, formatting, ...) are skipped: those commits change
//    comments, docstrings or annotations, not behaviour.
// 3. Files (`git diff-tree -r --no-renames PARENT COMMIT`): a source file is one
//    whose language (reponav's languageForPath) is in --languages, that is not
//    a test (reponav's isTestPath), a stub (.pyi, .d.ts) or under docs/ or doc/. The
//    commit needs 1..--max-files source files, none of them deleted. Added
//    source files do not exist at the base commit: they give no gold.
//    Commits touching only tests, docs or other files have no source file: skipped.
// 4. Gold: each modified source file's PARENT blob is parsed with reponav's own
//    parser (parseSource). Old-side lines of `git diff -U0` hunks are the
//    changed lines; a pure insertion after old line a counts for a function
//    that contains line a and either continues past it or, when a is its last
//    line, whose first inserted non-blank line is indented deeper than its
//    first line (the body grows). A changed line counts for the OUTERMOST
//    function or method enclosing it (nested functions count for their
//    enclosing one, as reponav's function predictions do); its gold string is
//    `path:qualifiedName` (`Class.method` or `function`, LocBench's format).
//    Changes in a class body outside methods or at module level give no gold,
//    nor do changes to a Rust unit test beside the code (`mod tests`; reponav's
//    isInlineTest): tests are never gold, wherever a language keeps them.
//    LocBench gold is always at function level (its metrics derive the module
//    from the symbol), so a commit where some modified source file has no
//    changed function is SKIPPED rather than given file-only gold; so is one
//    with more than --max-gold functions (default 10; LocBench's largest is 9).
// 5. Query (`problem_statement`), formed as bench/fix-queries.mjs says (an issue
//    title the body quotes, a merge's pull-request title, or the message), and
//    recorded in `query_source` with the numbers it names in `issue_refs`: the message with trailers removed (lines
//    `Xxx-by: …`, `Change-Id:`, `(cherry picked from …)`, `---` rules, lines that are only a
//    closing keyword + `#N` or only a pull-request/issue URL) and a trailing
//    `(#N)` PR number dropped from the subject; fewer than --min-words words: skipped.
//    A merge's fix test (rule 2) reads its pull-request title and description.
// Instances: instance_id `owner__name-<12 hex>`, base_commit = the parent,
// category `Bug Report`, patch = `git diff PARENT COMMIT` (informational),
// plus `fix_commit` and `created_at` (commit date).
// Which instances: the newest --max (default 40) that pass; with --seed S the
// candidates after step 2 are shuffled with a seeded generator first, so the
// same S, history and options give the same file.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';
import { formQuery } from './fix-queries.mjs';

// The build's functions, loaded by historyInstances (loadBuild): --help, a bad flag and
// the scripts that import this one's helpers load none of the build.
let languageForPath, parseSource, seededRandom, isInlineTest, isTestPath;
async function loadBuild() {
  if (languageForPath) return;
  ({ languageForPath, parseSource } = await import('../dist/reponav.js'));
  ({ seededRandom } = await import('../dist/eval/paired-bootstrap.js'));
  ({ isInlineTest, isTestPath } = await import('../dist/retrieve/path-prior.js'));
}

export { cleanMessage } from './fix-queries.mjs';

const execFileAsync = promisify(execFile);

const FIX_WORDS = /\b(fix|fixes|fixed|fixing|bug|bugs|bugfix|hotfix)\b/i;
const ISSUE_REF = /\b(issues?|close[sd]?|resolve[sd]?)\s*#\d+/i;
const TRAILER_BY = /^\s*[A-Za-z][A-Za-z-]*-by:\s/;
// Maintenance, not behaviour: such "fixes" change comments, docstrings or annotations.
const NOT_A_BUG = /\b(typos?|spelling|lint(s|ing|er)?|flake8|pep ?8|mypy|typing|type hints?|annotations?|whitespace|formatting|docstrings?|documentation|docs?|comments?|changelog|readme|deprecation warnings?)\b/i;
const SQUASHED_COMMIT = /^\* /;
const STUB_OR_DOCS = /\.(pyi|d\.[mc]?ts)$|(^|\/)docs?\//;
const FUNCTION_KINDS = new Set(['function', 'method']);

/** `git --git-dir DIR ...args` → stdout. */
async function git(gitDir, args) {
  const { stdout } = await execFileAsync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  return stdout;
}

/** True when a commit message reads as a fix (rule 2 of the header). */
export function looksLikeFix(message) {
  const [subject = '', ...body] = message.split('\n');
  if (/^\s*revert\b/i.test(subject) || NOT_A_BUG.test(subject)) return false;
  // A squash merge lists its branch's commits as `* subject` lines: their "fix docs" says nothing about the change.
  const text = [subject, ...body.filter((line) => !TRAILER_BY.test(line) && !SQUASHED_COMMIT.test(line))].join('\n');
  return FIX_WORDS.test(text) || ISSUE_REF.test(text);
}

/** Old-side line ranges of a `-U0` diff: `{ start, count, added }` per hunk (added: the inserted lines). */
export function parseHunks(diff) {
  const hunks = [];
  let current = null;
  for (const line of diff.split('\n')) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
    if (header) {
      current = { start: Number(header[1]), count: header[2] === undefined ? 1 : Number(header[2]), added: [] };
      hunks.push(current);
    } else if (current && line.startsWith('+') && !line.startsWith('+++')) current.added.push(line.slice(1));
  }
  return hunks;
}

const indentOf = (line) => /^[ \t]*/.exec(line)[0].replace(/\t/g, '        ').length;

/**
 * Gold qualified names of one file: the outermost function or method
 * enclosing each changed old-side line (rule 4 of the header), in line order.
 */
export function changedFunctions(symbols, oldText, hunks) {
  const byName = new Map(symbols.map((s) => [s.qualifiedName, s]));
  const oldLines = oldText.split('\n');
  const unitAt = (line) => {
    let innermost = null;
    for (const s of symbols) {
      if (s.startLine <= line && line <= s.endLine && (!innermost || s.endLine - s.startLine < innermost.endLine - innermost.startLine)) innermost = s;
    }
    let unit = null;
    for (let s = innermost; s; s = s.parent ? byName.get(s.parent) : undefined) {
      if (FUNCTION_KINDS.has(s.kind)) unit = s;
    }
    return unit;
  };
  const found = new Map();
  const add = (unit) => {
    if (unit && !found.has(unit.qualifiedName)) found.set(unit.qualifiedName, unit.startLine);
  };
  for (const hunk of hunks) {
    if (hunk.count > 0) {
      for (let line = hunk.start; line < hunk.start + hunk.count; line++) add(unitAt(line));
      continue;
    }
    const firstAdded = hunk.added.find((line) => line.trim() !== '');
    if (firstAdded === undefined || hunk.start === 0) continue;
    const unit = unitAt(hunk.start);
    if (!unit) continue;
    if (hunk.start < unit.endLine || indentOf(firstAdded) > indentOf(oldLines[unit.startLine - 1] ?? '')) add(unit);
  }
  return [...found.entries()].sort((a, b) => a[1] - b[1]).map(([name]) => name);
}

/** Commits of the first-parent history with their message, newest first. */
async function listCommits(gitDir, options) {
  const args = ['log', '--first-parent', ...(options.merges ? [] : ['--no-merges']), '--format=%H%x00%P%x00%an%x00%cI%x00%B%x1e'];
  if (options.since) args.push(`--since=${options.since}`);
  if (options.until) args.push(`--until=${options.until}`);
  args.push(options.rev, '--');
  const out = await git(gitDir, args);
  return out
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record.includes('\x00'))
    .map((record) => {
      const [sha, parents, author, date, message] = record.split('\x00');
      const all = parents.split(' ').filter(Boolean);
      return { sha, parent: all[0], merge: all.length > 1, author, date, message };
    });
}

/** One candidate commit → an instance, or the reason it is skipped. */
async function instanceFor(gitDir, repo, commit, options) {
  if (!commit.parent) return { skip: 'root commit' };
  const { query, source: querySource, refs } = commit.formed;
  if (query.split(/\s+/).filter(Boolean).length < options.minWords) return { skip: 'message too short' };
  const status = await git(gitDir, ['diff-tree', '-r', '--no-renames', '--name-status', '-z', commit.parent, commit.sha]);
  const fields = status.split('\x00').filter(Boolean);
  const source = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [change, path] = [fields[i], fields[i + 1]];
    const language = languageForPath(path);
    if (!language || !options.languages.has(language) || isTestPath(path) || STUB_OR_DOCS.test(path)) continue;
    source.push({ change: change[0], path });
  }
  if (source.length === 0) return { skip: 'no non-test source file' };
  if (source.length > options.maxFiles) return { skip: 'too many source files' };
  if (source.some((file) => file.change === 'D')) return { skip: 'deletes a source file' };
  const gold = [];
  for (const file of source.filter((f) => f.change === 'M')) {
    const { stdout: oldBytes } = await execFileAsync('git', ['--git-dir', gitDir, 'cat-file', 'blob', `${commit.parent}:${file.path}`], {
      maxBuffer: 256 * 1024 * 1024,
      encoding: 'buffer',
    });
    const parsed = await parseSource(file.path, oldBytes);
    const oldText = oldBytes.toString('utf8');
    if (parsed.status !== 'ok' && parsed.status !== 'partial') return { skip: 'parent file does not parse' };
    const diff = await git(gitDir, ['diff', '-U0', '--no-renames', '--no-color', '--no-ext-diff', commit.parent, commit.sha, '--', file.path]);
    const names = changedFunctions(parsed.symbols, oldText, parseHunks(diff)).filter((name) => !isInlineTest(file.path, name));
    if (names.length === 0) return { skip: 'a source file changes outside functions only' };
    gold.push(...names.map((name) => `${file.path}:${name}`));
  }
  if (gold.length === 0) return { skip: 'only adds source files' };
  if (gold.length > options.maxGold) return { skip: 'too many changed functions' };
  const patch = await git(gitDir, ['diff', '--no-renames', '--no-color', '--no-ext-diff', commit.parent, commit.sha]);
  const [owner, name] = repo.split('/');
  return {
    instance: {
      instance_id: `${owner}__${name}-${commit.sha.slice(0, 12)}`,
      repo,
      base_commit: commit.parent,
      category: 'Bug Report',
      problem_statement: query,
      patch,
      edit_functions: gold,
      fix_commit: commit.sha,
      created_at: commit.date,
      query_source: querySource,
      issue_refs: refs,
    },
  };
}

/** Builds the instances (newest first) and counts why other commits were skipped. */
export async function historyInstances(gitDir, repo, options) {
  await loadBuild();
  const commits = await listCommits(gitDir, options);
  const skipped = new Map();
  const count = (reason) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  const candidates = [];
  commits.forEach((commit, order) => {
    if (options.onlyCommits && !options.onlyCommits.has(commit.sha)) return;
    const formed = formQuery(commit.message, commit.merge);
    if (/\[bot\]$/.test(commit.author)) count('bot author');
    else if (!formed) count('branch merge');
    else if (!looksLikeFix(commit.merge ? formed.query : commit.message)) count('not a fix message');
    else candidates.push({ ...commit, formed, order });
  });
  if (options.seed !== undefined) {
    const random = seededRandom(options.seed);
    for (let i = candidates.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [candidates[i], candidates[j]] = [candidates[j], candidates[i]];
    }
  }
  const accepted = [];
  for (const commit of candidates) {
    if (accepted.length >= options.max) break;
    // A mirror may lack large blobs (git then cannot diff or read them): such a commit is skipped, not fatal.
    const result = await instanceFor(gitDir, repo, commit, options).catch(() => ({ skip: 'git cannot read a blob' }));
    if (result.instance) accepted.push({ order: commit.order, instance: result.instance });
    else count(result.skip);
  }
  accepted.sort((a, b) => a.order - b.order);
  return { instances: accepted.map((a) => a.instance), scanned: commits.length, skipped };
}

/** True when the query contains the simple name of one of the gold functions as a word. */
export function namesGoldFunction(instance) {
  return instance.edit_functions.some((gold) => {
    const name = gold.slice(gold.lastIndexOf(':') + 1).split('.').pop() ?? '';
    return name !== '' && new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[^A-Za-z0-9_]/g, '\\$&')}($|[^A-Za-z0-9_])`).test(instance.problem_statement);
  });
}

/** `owner/name` from a folder named `owner+name` / `owner__name` (or its `repo` child). */
function repoFromPath(gitDir) {
  const absolute = resolve(gitDir);
  for (const name of [basename(absolute), basename(dirname(absolute))]) {
    const match = /^([A-Za-z0-9_.-]+?)(?:\+|__)([A-Za-z0-9_.-]+)$/.exec(name);
    if (match) return `${match[1]}/${match[2].replace(/\.git$/, '')}`;
  }
  return null;
}

const USAGE = `usage: node bench/history-instances.mjs GIT_DIR [--repo owner/name] [--out FILE]
  [--max N] [--seed S] [--since DATE] [--until DATE] [--rev REF] [--merges] [--commits FILE]
  [--languages python] [--max-files 3] [--max-gold 10] [--min-words 3]
(see the header of bench/history-instances.mjs)`;

function parseArgs() {
  const text = ['repo', 'out', 'max', 'seed', 'since', 'until', 'rev', 'commits', 'languages', 'max-files', 'max-gold', 'min-words'];
  const { values, positionals } = parseBenchArgs({
    usage: USAGE,
    options: { ...Object.fromEntries(text.map((name) => [name, { type: 'string' }])), merges: { type: 'boolean' } },
    minPositionals: 1,
    maxPositionals: 1,
  });
  const whole = (name, fallback) => wholeNumber(USAGE, name, values[name]) ?? fallback;
  const options = {
    max: whole('max', 40),
    seed: whole('seed', undefined),
    since: values.since,
    until: values.until,
    rev: values.rev ?? 'HEAD',
    merges: values.merges ?? false,
    languages: new Set((values.languages ?? 'python').split(',')),
    maxFiles: whole('max-files', 3),
    maxGold: whole('max-gold', 10),
    minWords: whole('min-words', 3),
  };
  if (values.commits) options.onlyCommits = new Set(readFileSync(values.commits, 'utf8').split(/\s+/).filter(Boolean));
  const gitDir = positionals[0];
  const repo = values.repo ?? repoFromPath(gitDir);
  if (!repo || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repo)) throw new Error('--repo owner/name is needed (the folder name does not say it)');
  return { gitDir, repo, out: values.out ?? null, options };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  let args;
  try {
    args = parseArgs();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const { instances, scanned, skipped } = await historyInstances(args.gitDir, args.repo, args.options);
  const jsonl = instances.map((instance) => JSON.stringify(instance)).join('\n') + (instances.length > 0 ? '\n' : '');
  if (args.out) writeFileSync(args.out, jsonl);
  else process.stdout.write(jsonl);
  const reasons = [...skipped.entries()].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${reason} ${n}`).join(', ');
  process.stderr.write(`${args.repo}: ${instances.length} instances from ${scanned} first-parent non-merge commits (skipped: ${reasons || 'none'})\n`);
  // How much the fixer's wording gives away: an issue reporter rarely names the function to change.
  const naming = instances.filter((instance) => namesGoldFunction(instance)).length;
  process.stderr.write(`${naming} of ${instances.length} queries name a gold function (its last dotted part, as a whole word)\n`);
}
