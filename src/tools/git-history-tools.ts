/**
 * The history tools over git: file_history (commits that touched a file or a
 * symbol's span, `git log -L` semantics), blame_lines (who, when, which
 * commit for a line range) and diff (one file's unified diff between
 * revisions, with the symbols it changed named).
 */
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import { blameLines, displayPath, fileAt, fileDiff, fileLog, gitContextOf, historyPath, resolveRevision, symbolsOfBytes, type BlameLine, type CommitInfo } from '../index/index.js';
import { lineCost } from '../budget/index.js';
import { clipLine, renderBlocks } from './output-budget.js';
import { comparedSides, revisionArg, type ComparedSides } from './git-revisions.js';
import { symbolChanges, symbolChangeSummary, type SymbolChange } from './symbol-changes.js';
import { lookupSymbols } from './symbol-lookup.js';
import { budgetArg, described, lazySchema, MAX_NAME_CHARS, nonEmptyStringArg, repoArg, wholeNumberArg } from './tool-args.js';
import type { ToolDefinition, ToolEnvironment } from './tool-types.js';
import { MAX_LINE_NUMBER } from './view-code-tool.js';
import { countOf } from '../plural.js';

/** Most lines one blame_lines call covers. */
export const MAX_BLAME_LINES = 500;

const fileArg = () => described(nonEmptyStringArg('file', 4096), 'Repository-relative path, e.g. `src/app.py`.');
const lineArg = (name: string, description: string) => described(z.optional(wholeNumberArg(name, 1, MAX_LINE_NUMBER)), description);

function shortCommit(commit: string): string {
  return commit.slice(0, 10);
}

function day(date: string): string {
  return date.slice(0, 10);
}

// ---------------------------------------------------------------- file_history

const historyInput = lazySchema(() =>
  z.strictObject({
    file: fileArg(),
    symbol: described(z.optional(nonEmptyStringArg('symbol', MAX_NAME_CHARS)), 'Only commits that changed this symbol\'s span (`Cart.checkout`), as `git log -L`.'),
    start: lineArg('start', 'Only commits that changed lines start..end (with end).'),
    end: lineArg('end', 'Last line of the span (default: start).'),
    revision: revisionArg('revision', 'Walk history from this revision (default HEAD, or the commit read).'),
    limit: described(z.optional(wholeNumberArg('limit', 1, 500)), 'Most commits listed (default 30).'),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

type HistoryInput = z.infer<ReturnType<typeof historyInput>>;

/** What file_history answers. */
export interface FileHistoryData {
  path: string;
  /** The span followed, when a symbol or lines were given. */
  span: { start: number; end: number; symbol: string | null } | null;
  commits: CommitInfo[];
  /** True when `limit` commits were found (older ones may exist). */
  limited: boolean;
}

/** The span of `symbol` in `path` (the index's current view), or BAD_INPUT naming what is there. */
function symbolSpan(env: ToolEnvironment, path: string, symbol: string): { start: number; end: number; symbol: string } {
  const found = lookupSymbols(env.repository.index.store, symbol, { category: 'any', pathFilter: (p) => p === path }).matches[0];
  if (!found) throw new ReponavError('FILE_NOT_FOUND', `No symbol named '${symbol}' in ${displayPath(path)}; list_symbols shows its symbols.`);
  return { start: found.startLine, end: found.endLine, symbol: found.qualifiedName };
}

/** `file_history`: the commits that touched a file or a symbol. */
export const fileHistoryTool: ToolDefinition<HistoryInput, FileHistoryData> = {
  name: 'file_history',
  title: 'File history',
  description:
    'Commits that touched a file, or only a symbol\'s or line span\'s lines (git log -L), newest first: hash, date, ' +
    'author, subject. Use to learn why code is as it is; blame_lines for single lines.',
  get inputSchema() {
    return historyInput();
  },
  defaultBudgetTokens: 1500,
  run(args, env) {
    const source = env.repository.index.source;
    const context = gitContextOf(source);
    const path = historyPath(source, args.file);
    if (args.symbol !== undefined && (args.start !== undefined || args.end !== undefined)) {
      throw new ReponavError('BAD_INPUT', 'give symbol or start/end, not both.');
    }
    if (args.end !== undefined && args.start === undefined) throw new ReponavError('BAD_INPUT', 'give start together with end.');
    if (args.start !== undefined && args.end !== undefined && args.end < args.start) throw new ReponavError('BAD_INPUT', `end ${args.end} is before start ${args.start}.`);
    const span = args.symbol !== undefined ? symbolSpan(env, path, args.symbol) : args.start !== undefined ? { start: args.start, end: args.end ?? args.start, symbol: null } : null;
    const revision = args.revision !== undefined ? resolveRevision(context, args.revision) : null;
    const limit = args.limit ?? 30;
    const commits = fileLog(context, path, { revision, lines: span ?? undefined, limit });
    if (commits.length === 0 && fileAt(context, revision ?? context.commit ?? 'HEAD', path) === null) {
      throw new ReponavError('FILE_NOT_FOUND', `${displayPath(path)} has no history here: git knows no such file at ${revision ? shortCommit(revision) : 'HEAD'}.`);
    }
    return { path, span, commits, limited: commits.length === limit };
  },
  render(data, env) {
    const what = data.span ? (data.span.symbol ? ` ${data.span.symbol} (lines ${data.span.start}-${data.span.end})` : ` lines ${data.span.start}-${data.span.end}`) : '';
    const head = [`[HISTORY] ${displayPath(data.path)}${what}: ${data.commits.length}${data.limited ? '+' : ''} ${data.commits.length === 1 ? 'commit' : 'commits'}, newest first`];
    const blocks = data.commits.map((c) => [clipLine(`${shortCommit(c.commit)} ${day(c.date)} ${c.author}: ${c.subject}`, 200)]);
    const footer = data.limited ? [`[MORE] older commits may exist; raise limit to see them.`] : [];
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'commit', plural: 'commits' }, { footer });
  },
  toJson(data) {
    return data;
  },
};

// ---------------------------------------------------------------- blame_lines

const blameInput = lazySchema(() =>
  z.strictObject({
    file: fileArg(),
    start: described(wholeNumberArg('start', 1, MAX_LINE_NUMBER), 'First line (1-based).'),
    end: lineArg('end', `Last line (inclusive; default start, at most start + ${MAX_BLAME_LINES - 1}).`),
    revision: revisionArg('revision', 'Blame the file at this revision (default: the working tree file, or the commit read).'),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

type BlameInput = z.infer<ReturnType<typeof blameInput>>;

/** What blame_lines answers. */
export interface BlameData {
  path: string;
  start: number;
  end: number;
  lines: BlameLine[];
}

/** `blame_lines`: who changed each line of a range last, when, in which commit. */
export const blameLinesTool: ToolDefinition<BlameInput, BlameData> = {
  name: 'blame_lines',
  title: 'Blame lines',
  description: 'Who last changed each line of a range, when and in which commit (git blame), lines grouped by commit. Use on a few lines; file_history for a whole file.',
  get inputSchema() {
    return blameInput();
  },
  defaultBudgetTokens: 1500,
  run(args, env) {
    const source = env.repository.index.source;
    const context = gitContextOf(source);
    const path = historyPath(source, args.file);
    const end = args.end ?? args.start;
    if (end < args.start) throw new ReponavError('BAD_INPUT', `end ${end} is before start ${args.start}.`);
    if (end - args.start + 1 > MAX_BLAME_LINES) throw new ReponavError('BAD_INPUT', `blame_lines covers at most ${MAX_BLAME_LINES} lines; give a smaller range.`);
    const revision = args.revision !== undefined ? resolveRevision(context, args.revision) : null;
    const bytes = fileAt(context, revision ?? context.commit, path);
    if (bytes === null) throw new ReponavError('FILE_NOT_FOUND', `${displayPath(path)} does not exist ${revision ? `at ${shortCommit(revision)}` : 'here'}.`);
    const count = bytes.length === 0 ? 0 : bytes.toString('utf8').replace(/\n$/, '').split('\n').length;
    if (args.start > count) throw new ReponavError('BAD_INPUT', `start ${args.start} is past the end of ${displayPath(path)}, which has ${countOf(count, 'line')}.`);
    const last = Math.min(end, count);
    return { path, start: args.start, end: last, lines: blameLines(context, path, args.start, last, revision) };
  },
  render(data, env) {
    const head = [`[BLAME] ${displayPath(data.path)} lines ${data.start}-${data.end}`];
    const width = String(data.end).length;
    const blocks: string[][] = [];
    const counts: number[] = [];
    for (const line of data.lines) {
      const last = blocks[blocks.length - 1];
      const text = `${String(line.line).padStart(width)} | ${clipLine(line.text.trimEnd())}`.trimEnd();
      if (last && data.lines[data.lines.indexOf(line) - 1]?.commit === line.commit) {
        last.push(text);
        counts[counts.length - 1]++;
        continue;
      }
      const who = /^0{40}$/.test(line.commit) ? 'not committed yet' : `${shortCommit(line.commit)} ${day(line.date)} ${line.author}: ${line.summary}`;
      blocks.push([clipLine(who, 200), text]);
      counts.push(1);
    }
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'line', plural: 'lines' }, { counts });
  },
  toJson(data) {
    return data;
  },
};

// ---------------------------------------------------------------- diff

const diffInput = lazySchema(() =>
  z.strictObject({
    file: fileArg(),
    from: revisionArg('from', 'Older revision. Default: HEAD for a working tree, the parent in commit mode.'),
    to: revisionArg('to', 'Newer revision; default: the working tree (or the commit read).'),
    context_lines: described(z.optional(wholeNumberArg('context_lines', 0, 50)), 'Unchanged lines around each change (default 3).'),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

type DiffInput = z.infer<ReturnType<typeof diffInput>>;

/** What diff answers. */
export interface DiffData {
  path: string;
  comparison: ComparedSides;
  symbols: SymbolChange[];
  /** The unified diff's lines (empty when the file is the same on both sides). */
  lines: string[];
}

/** `diff`: one file's unified diff between revisions, with its changed symbols. */
export const diffTool: ToolDefinition<DiffInput, DiffData> = {
  name: 'diff',
  title: 'Diff of a file',
  description:
    'Unified diff of one file between two git revisions, or the working tree against HEAD, with the functions and ' +
    'classes it changed named first. Long diffs are cut and say so. changed_files lists which files changed.',
  get inputSchema() {
    return diffInput();
  },
  defaultBudgetTokens: 3000,
  async run(args, env) {
    const { index } = env.repository;
    const context = gitContextOf(index.source);
    const path = historyPath(index.source, args.file);
    const sides = comparedSides(context, args.from, args.to);
    const before = sides.before === null ? null : fileAt(context, sides.before, path);
    const after = fileAt(context, sides.after, path);
    if (before === null && after === null) {
      throw new ReponavError('FILE_NOT_FOUND', `${displayPath(path)} exists on neither side (${sides.label}); changed_files lists the changed files.`);
    }
    const symbols = symbolChanges(before ? await symbolsOfBytes(index.store, path, before) : null, after ? await symbolsOfBytes(index.store, path, after) : null);
    const text = sides.before === null ? '' : fileDiff(context, path, sides.before, sides.after, args.context_lines ?? 3);
    const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
    return { path, comparison: sides, symbols, lines };
  },
  render(data, env) {
    const head = [`[DIFF] ${displayPath(data.path)}: ${data.comparison.label}`];
    if (data.symbols.length > 0) head.push(`changed symbols: ${symbolChangeSummary(data.symbols, 20)}`);
    if (data.lines.length === 0) return [...head, '(no difference)'].join('\n');
    const note = (left: number) => `[TRUNCATED] ${countOf(left, 'diff line')} left out to stay within ${env.budgetTokens} tokens; pass a larger budget_tokens or fewer context_lines.`;
    let used = head.reduce((sum, line) => sum + lineCost(line), 0) + lineCost(note(data.lines.length));
    const body = data.lines.map((line) => clipLine(line));
    let kept = 0;
    while (kept < body.length && used + lineCost(body[kept]) <= env.budgetTokens) used += lineCost(body[kept++]);
    if (kept === body.length) return [...head, ...body].join('\n');
    return [...head, ...body.slice(0, kept), note(body.length - kept)].join('\n');
  },
  toJson(data) {
    return data;
  },
};
