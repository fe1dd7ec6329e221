/**
 * view_code: numbered source lines of a file, a line span, or a named symbol,
 * cut to the budget with a note saying where to continue.
 */
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import type { FileRow, SymbolRow } from '../index/index.js';
import { estimateTokens, lineCost } from '../budget/index.js';
import { displayPath } from '../scaffold/index.js';
import { numberLines } from './output-budget.js';
import { splitLines } from './source-lines.js';
import { lookupSymbols, sortSymbols } from './symbol-lookup.js';
import { budgetArg, described, MAX_NAME_CHARS, nonEmptyStringArg, repoArg, lazySchema } from './tool-args.js';
import type { ToolDefinition } from './tool-types.js';
import { countOf } from '../plural.js';

/** Largest line number accepted in an argument (a bound on nonsense, not on file size). */
export const MAX_LINE_NUMBER = 10_000_000;

const lineNumber = (name: string, description: string) =>
  described(
    z.optional(
      z.number().check(
        z.int(`${name} must be a whole line number`),
        z.gte(1, `${name} must be at least 1 (lines are 1-based)`),
        z.lte(MAX_LINE_NUMBER, `${name} must be at most ${MAX_LINE_NUMBER}`),
      ),
    ),
    description,
  );

const viewInput = lazySchema(() =>
  z
    .strictObject({
      file: described(
        z.optional(z.string().check(z.maxLength(4096, 'file is limited to 4096 characters'))),
        'Repository-relative path, e.g. `src/app.py`; `src/app.py:40-80` also works. Optional when symbol is given.',
      ),
      start: lineNumber('start', 'First line to show (1-based, default 1).'),
      end: lineNumber('end', 'Last line to show (inclusive, default: end of file or of the symbol).'),
      symbol: described(
        z.optional(nonEmptyStringArg('symbol', MAX_NAME_CHARS)),
        'Show this symbol\'s span instead of lines: `Cart.checkout`, `checkout`, `Cart`.',
      ),
      repo: repoArg(),
      budget_tokens: budgetArg(),
    })
    .check(z.refine((args) => args.file !== undefined || args.symbol !== undefined, { message: 'give file (a path), symbol (a name), or both' })),
);

type ViewInput = z.infer<ReturnType<typeof viewInput>>;

/** What view_code shows. */
export interface ViewData {
  path: string;
  language: string;
  lineCount: number;
  /** The span asked for, clamped to the file. */
  start: number;
  end: number;
  /** The symbol shown, when one was asked for. */
  symbol: { qualifiedName: string; kind: string } | null;
  /** Other symbols that matched the name equally well. */
  alternatives: Array<{ path: string; qualifiedName: string; startLine: number; endLine: number }>;
  /** True when `end` was asked past the end of the file. */
  clamped: boolean;
  /** True when the file is not UTF-8 and its lines are shown decoded as Windows-1252 (Latin-1). */
  notUtf8?: boolean;
  lines: string[];
}

/** `path:12-30` / `path:12` → its parts; anything else → the path alone. */
export function parseFileSpan(file: string): { path: string; start?: number; end?: number } {
  const match = /^(.*?):(\d{1,8})(?:-(\d{1,8}))?$/.exec(file.trim());
  if (!match || match[1] === '') return { path: file };
  return { path: match[1], start: Number(match[2]), end: match[3] !== undefined ? Number(match[3]) : Number(match[2]) };
}

/**
 * Resolves `file`; when it is not a file but `PATH:SUFFIX` with PATH an indexed
 * file (`cart.ts:abc`, `cart.ts:10-`), throws BAD_INPUT naming the span, so the
 * caller is not told that a file it can see does not exist.
 */
function resolveOrNameBadSpan(file: string, resolve: (path: string) => FileRow, isFile: (path: string) => boolean): FileRow {
  try {
    return resolve(file);
  } catch (error) {
    const colon = file.lastIndexOf(':');
    const path = file.slice(0, colon);
    if (colon > 0 && isFile(path)) {
      throw new ReponavError(
        'BAD_INPUT',
        `'${file.slice(colon + 1)}' after ${displayPath(path)} is not a line span; write ${displayPath(path)}:START-END or ${displayPath(path)}:LINE.`,
      );
    }
    throw error;
  }
}

function chooseSymbol(matches: SymbolRow[], name: string, isStub: (symbol: SymbolRow) => boolean): SymbolRow {
  // Several equal matches: an exact qualified name wins, then the first by path and line.
  const sorted = sortSymbols(matches);
  const first = sorted.find((s) => s.qualifiedName === name) ?? sorted[0]!;
  // Python's typing overloads come first and have no body: the implementation of the same name in the same
  // file is what a reader asked for (the stubs stay listed among the other matches).
  if (!isStub(first)) return first;
  return sorted.find((s) => s.path === first.path && s.qualifiedName === first.qualifiedName && !isStub(s)) ?? first;
}

/** A decorator line naming typing's `overload` (`@overload`, `@typing.overload`, `@t.overload`). */
const OVERLOAD_DECORATOR = /^\s*@(?:typing\.|t\.)?overload\b/;

/** Whether the symbol's leading decorator lines (part of its span) include `@overload`. */
function isOverloadStub(lines: readonly string[], symbol: SymbolRow): boolean {
  for (let line = symbol.startLine; line <= symbol.endLine; line++) {
    const text = lines[line - 1];
    if (text === undefined || !/^\s*@/.test(text)) return false;
    if (OVERLOAD_DECORATOR.test(text)) return true;
  }
  return false;
}

/** `view_code`: numbered lines of a file, a span or a symbol. */
export const viewCodeTool: ToolDefinition<ViewInput, ViewData> = {
  name: 'view_code',
  title: 'View code',
  description:
    'Read source with line numbers: a file, a span (start/end, or `path:40-80`), or a symbol ' +
    '(`symbol: "Cart.checkout"`). Long output is cut and names the next start line. Use once another tool told you ' +
    'where to look; prefer a span or symbol to a whole large file.',
  get inputSchema() {
    return viewInput();
  },
  defaultBudgetTokens: 3000,
  run(args, env) {
    const { repository } = env;
    const store = repository.index.store;
    let file: FileRow | null = null;
    let start = args.start;
    let end = args.end;
    if (args.file !== undefined) {
      const span = start === undefined && end === undefined ? parseFileSpan(args.file) : { path: args.file };
      // `path:12-30` is a span unless a file is literally named so.
      if (span.start !== undefined && !store.file(args.file)) {
        file = repository.index.resolveFile(span.path);
        start = span.start;
        end = span.end;
      } else if (!store.file(args.file)) {
        file = resolveOrNameBadSpan(args.file, (path) => repository.index.resolveFile(path), (path) => store.file(path) !== null);
      } else {
        file = repository.index.resolveFile(args.file);
      }
    }
    let symbol: SymbolRow | null = null;
    let alternatives: ViewData['alternatives'] = [];
    if (args.symbol !== undefined) {
      const fixedPath = file?.path;
      const lookup = lookupSymbols(store, args.symbol, { category: 'any', pathFilter: fixedPath ? (p) => p === fixedPath : undefined });
      if (lookup.matches.length === 0) {
        const inFile = fixedPath ? ` in ${fixedPath}` : '';
        const locate =
          env.context.surface === 'cli'
            ? 'Run `reponav symbols` on the file or `reponav find function` / `reponav find class` to locate it.'
            : 'Use list_symbols on the file or find_function / find_class to locate it.';
        throw new ReponavError('FILE_NOT_FOUND', `No symbol named '${lookup.query.name}'${inFile}. ${locate}`);
      }
      const fileLines = new Map<string, readonly string[]>();
      const linesOf = (path: string) => {
        let lines = fileLines.get(path);
        if (!lines) {
          const row = store.file(path);
          fileLines.set(path, (lines = row ? splitLines(store.blobText(row.blobId) ?? '') : []));
        }
        return lines;
      };
      symbol = chooseSymbol(lookup.matches, lookup.query.name, (s) => /\.pyi?$/.test(s.path) && isOverloadStub(linesOf(s.path), s));
      alternatives = lookup.matches
        .filter((s) => s !== symbol)
        .slice(0, 5)
        .map((s) => ({ path: s.path, qualifiedName: s.qualifiedName, startLine: s.startLine, endLine: s.endLine }));
      file = store.file(symbol.path);
      if (!file) throw new ReponavError('FILE_NOT_FOUND', `${displayPath(symbol.path)} is no longer indexed; ${env.context.surface === 'cli' ? 'run the command' : 'call view_code'} again.`);
      start ??= symbol.startLine;
      end ??= symbol.endLine;
    }
    const text = store.blobText(file!.blobId) ?? '';
    const all = splitLines(text);
    const lineCount = all.length;
    const first = start ?? 1;
    if (lineCount === 0) {
      return { path: file!.path, language: file!.language, lineCount, start: 1, end: 0, symbol: null, alternatives, clamped: false, lines: [] };
    }
    if (first > lineCount) {
      throw new ReponavError('BAD_INPUT', `start ${first} is past the end of ${displayPath(file!.path)}, which has ${countOf(lineCount, 'line')}.`);
    }
    if (end !== undefined && end < first) {
      throw new ReponavError('BAD_INPUT', `end ${end} is before start ${first}; give end >= start.`);
    }
    const last = Math.min(end ?? lineCount, lineCount);
    return {
      path: file!.path,
      language: file!.language,
      lineCount,
      start: first,
      end: last,
      symbol: symbol ? { qualifiedName: symbol.qualifiedName, kind: symbol.kind } : null,
      alternatives,
      clamped: end !== undefined && end > lineCount,
      ...(file!.decodedWithReplacement ? { notUtf8: true } : {}),
      lines: all.slice(first - 1, last),
    };
  },
  render(data, env) {
    if (data.lineCount === 0) return `[FILE] ${displayPath(data.path)} (${data.language}, empty)`;
    const what = data.symbol ? ` — ${data.symbol.qualifiedName} (${data.symbol.kind})` : '';
    const head = [`[FILE] ${displayPath(data.path)} (${data.language}, ${countOf(data.lineCount, 'line')}) lines ${data.start}-${data.end}${what}`];
    if (data.clamped) head.push(`(the file ends at line ${data.lineCount})`);
    if (data.notUtf8) head.push('(not UTF-8: shown decoded as Latin-1 / Windows-1252)');
    if (data.alternatives.length > 0) {
      head.push(`(other matches: ${data.alternatives.map((a) => `${displayPath(a.path)}:${a.startLine}-${a.endLine} ${a.qualifiedName}`).join('; ')}; ${env.context.surface === 'cli' ? 'give FILE' : 'pass file'} to pick one)`);
    }
    const width = String(data.end).length;
    const body = numberLines(data.lines, data.start, width);
    const whole = [...head, ...body].join('\n');
    if (estimateTokens(whole) <= env.budgetTokens) return whole;
    // Keep a prefix of lines and say exactly where to continue.
    const note = (from: number) =>
      `[TRUNCATED] lines ${from}-${data.end} left out to stay within ${env.budgetTokens} tokens; ${
        env.context.surface === 'cli'
          ? `run \`reponav view ${displayPath(data.path)} --start ${from}${data.end !== data.lineCount ? ` --end ${data.end}` : ''}\``
          : `call view_code with start=${from}${data.end !== data.lineCount ? ` end=${data.end}` : ''}`
      } to continue.`;
    let used = head.reduce((sum, line) => sum + lineCost(line), 0) + lineCost(note(data.end));
    let kept = 0;
    while (kept < body.length && used + lineCost(body[kept]) <= env.budgetTokens) used += lineCost(body[kept++]);
    return [...head, ...body.slice(0, kept), note(data.start + kept)].join('\n');
  },
  toJson(data) {
    return data;
  },
};
