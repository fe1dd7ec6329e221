/**
 * regex_search: grep over the indexed files. Patterns run on re2js (a pure-JS
 * port of RE2): matching is linear in the input, so no pattern can backtrack
 * catastrophically, and the constructs that would need backtracking
 * (backreferences, lookaround) are refused at compile time with a message.
 * On top of that the scan stops at a deadline and at a match limit, and only
 * indexed files are read, so ignore rules, size limits and binary skips apply.
 */
import { displayPath } from '../scaffold/index.js';
import type { RE2JS } from 're2js';
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import type { IndexStore } from '../index/index.js';
import { clipLine, renderBlocks } from './output-budget.js';
import { splitLines } from './source-lines.js';
import { budgetArg, described, filePatternArg, nonEmptyStringArg, pathFilterOf, repoArg, lazySchema } from './tool-args.js';
import type { ToolDefinition } from './tool-types.js';
import { countOf } from '../plural.js';

/** Longest pattern accepted. */
export const MAX_REGEX_CHARS = 1000;

/** How long one search may scan before answering with what it found. */
export const REGEX_DEADLINE_MS = 3000;

/** One matching line. */
export interface RegexMatch {
  path: string;
  line: number;
  text: string;
}

/** A search's outcome. */
export interface RegexSearchResult {
  pattern: string;
  matches: RegexMatch[];
  /** Matching lines seen (may exceed matches.length when the limit cut them). */
  totalMatches: number;
  filesWithMatches: number;
  filesSearched: number;
  filesTotal: number;
  /** True when the deadline stopped the scan before every file was read. */
  timedOut: boolean;
  elapsedMs: number;
}

/** re2js, loaded by the first regex search: it is a third of the code a `search` process would otherwise compile. */
let re2: typeof RE2JS | null = null;

/** Compiles an RE2 pattern, turning a syntax error into one actionable sentence (worded for the CLI when `surface` is 'cli'). */
export async function compileRegex(pattern: string, ignoreCase: boolean, surface: 'mcp' | 'cli' = 'mcp'): Promise<RE2JS> {
  const RE2JS = (re2 ??= (await import('re2js')).RE2JS);
  try {
    return RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    const literal = surface === 'cli' ? 'or search for literal text with `reponav search`' : 'or use find_code_snippet for literal text';
    throw new ReponavError(
      'BAD_INPUT',
      `Invalid pattern (${why}). Patterns use RE2 syntax: no backreferences or lookaround; escape literal characters such as ( [ . with a backslash, ${literal}.`,
    );
  }
}

/**
 * Scans the indexed text of every file passing `pathFilter` (paths in order),
 * line by line, keeping the first `limit` matching lines; stops at `deadlineMs`.
 */
export function searchRegex(
  store: IndexStore,
  regex: RE2JS,
  options: { limit: number; pathFilter?: (path: string) => boolean; deadlineMs?: number; now?: () => number },
): RegexSearchResult {
  const now = options.now ?? Date.now;
  const started = now();
  const deadline = started + (options.deadlineMs ?? REGEX_DEADLINE_MS);
  const files = store.files().filter((f) => !options.pathFilter || options.pathFilter(f.path));
  // A whole-file test first skips files without a match cheaply; with MULTILINE, ^ and $ behave per line there
  // too, so it matches whenever some line does (\A and \z would not, so such patterns skip the pre-test).
  const source = regex.pattern();
  // re2 is loaded: `regex` came from compileRegex.
  const fileTest = /\\[Az]/.test(source) ? null : re2!.compile(source, regex.flags() | re2!.MULTILINE);
  const result: RegexSearchResult = {
    pattern: regex.pattern(),
    matches: [],
    totalMatches: 0,
    filesWithMatches: 0,
    filesSearched: 0,
    filesTotal: files.length,
    timedOut: false,
    elapsedMs: 0,
  };
  for (const file of files) {
    if (now() > deadline) {
      result.timedOut = true;
      break;
    }
    const text = store.fileText(file.path);
    result.filesSearched++;
    if (text === null || (fileTest && !fileTest.test(text))) continue;
    const lines = splitLines(text);
    let matched = false;
    for (let i = 0; i < lines.length; i++) {
      if (!regex.test(lines[i])) continue;
      matched = true;
      result.totalMatches++;
      if (result.matches.length < options.limit) result.matches.push({ path: file.path, line: i + 1, text: lines[i] });
    }
    if (matched) result.filesWithMatches++;
  }
  result.elapsedMs = now() - started;
  return result;
}

const regexInput = lazySchema(() =>
  z.strictObject({
    pattern: described(
      nonEmptyStringArg('pattern', MAX_REGEX_CHARS),
      'RE2 regular expression matched against each line, e.g. `def \\w+_total\\(` or `TODO|FIXME`.',
    ),
    ignore_case: described(z.optional(z.boolean()), 'Match case-insensitively (default false).'),
    file_pattern: filePatternArg(),
    max_matches: described(z.optional(z.number().check(z.int(), z.gte(1), z.lte(500))), 'Matching lines to show (default 50).'),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

/** `regex_search`: grep the indexed files. */
export const regexSearchTool: ToolDefinition<z.infer<ReturnType<typeof regexInput>>, RegexSearchResult> = {
  name: 'regex_search',
  title: 'Regex search (grep)',
  description:
    'Grep: every line of the indexed files matching an RE2 regular expression, as path:line. Use for patterns ' +
    '(all call sites of foo\\(, TODO|FIXME, an error string with variable parts). For literal text use ' +
    'find_code_snippet; for where a symbol is called use find_references; to find code by meaning use search. ' +
    'Skips ignored, binary and oversized files; stops after 3 s.',
  get inputSchema() {
    return regexInput();
  },
  defaultBudgetTokens: 1500,
  async run(args, env) {
    const regex = await compileRegex(args.pattern, args.ignore_case ?? false, env.context.surface);
    return searchRegex(env.repository.index.store, regex, { limit: args.max_matches ?? 50, pathFilter: pathFilterOf(args.file_pattern) });
  },
  render(r, env) {
    const scope = r.filesTotal === r.filesSearched ? countOf(r.filesSearched, 'file') : `${r.filesSearched} of ${countOf(r.filesTotal, 'file')}`;
    const head = [
      r.totalMatches === 0
        ? `No line matches /${clipLine(r.pattern, 200)}/ in ${scope}.`
        : `${r.totalMatches} matching line${r.totalMatches === 1 ? '' : 's'} in ${r.filesWithMatches} file${r.filesWithMatches === 1 ? '' : 's'} (searched ${scope}):`,
    ];
    if (r.timedOut) head.push(`[STOPPED] after ${r.elapsedMs} ms with ${countOf(r.filesTotal - r.filesSearched, 'file')} unread; narrow file_pattern to search them.`);
    const blocks: string[][] = [];
    let current: string | null = null;
    for (const m of r.matches) {
      if (m.path !== current) {
        blocks.push([displayPath(m.path)]);
        current = m.path;
      }
      blocks[blocks.length - 1].push(`  ${m.line}: ${clipLine(m.text.trim(), 200)}`);
    }
    const counts = blocks.map((b) => b.length - 1);
    const notShown = r.totalMatches - r.matches.length;
    const footer = notShown > 0 ? [`… ${countOf(notShown, 'more matching line', 'more matching lines')} not shown; raise max_matches or narrow the pattern.`] : [];
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'matching line', plural: 'matching lines' }, { counts, footer, alreadyLeftOut: 0 });
  },
};
