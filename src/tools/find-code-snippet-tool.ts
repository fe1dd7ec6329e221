/**
 * find_code_snippet: literal substring search over the indexed text of every
 * file (not a regex, so no pattern can be slow), answering file:line hits with
 * a little context.
 */
import { displayPath } from '../scaffold/index.js';
import * as z from '../zod-mini.js';
import { filesContainingText, type IndexStore } from '../index/index.js';
import { lineStartsOf } from '../parse/index.js';
import { numberLines, renderBlocks } from './output-budget.js';
import { splitLines } from './source-lines.js';
import { budgetArg, described, filePatternArg, nonEmptyStringArg, pathFilterOf, repoArg, lazySchema, wholeNumberArg } from './tool-args.js';
import type { ToolDefinition } from './tool-types.js';
import { countOf } from '../plural.js';

/** Longest text searched for. */
export const MAX_SNIPPET_CHARS = 2000;

/** One occurrence: 1-based line and column of its first character, and the line of its last. */
export interface TextMatch {
  path: string;
  line: number;
  column: number;
  endLine: number;
}

/** Every occurrence of `needle` in `text` (non-overlapping, left to right), as 0-based offsets. */
export function findOccurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  if (needle.length === 0) return out;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

/** 1-based line containing `offset` (binary search over line starts). */
function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The search's outcome: counts over all files, details for the first `limit` matches. */
export interface SnippetSearchResult {
  text: string;
  totalMatches: number;
  totalFiles: number;
  matches: TextMatch[];
  /** When nothing matched exactly: the first case-insensitive match, if any. */
  caseInsensitiveExample: TextMatch | null;
}

/** Searches the indexed text of every file passing `pathFilter`, paths in order. */
export function searchIndexedText(store: IndexStore, needle: string, limit: number, pathFilter?: (path: string) => boolean): SnippetSearchResult {
  const rows = filesContainingText(store, needle);
  const result: SnippetSearchResult = { text: needle, totalMatches: 0, totalFiles: 0, matches: [], caseInsensitiveExample: null };
  for (const row of rows) {
    if (pathFilter && !pathFilter(row.path)) continue;
    const offsets = findOccurrences(row.text, needle);
    if (offsets.length === 0) continue;
    result.totalFiles++;
    result.totalMatches += offsets.length;
    if (result.matches.length >= limit) continue;
    const starts = lineStartsOf(row.text);
    for (const offset of offsets.slice(0, limit - result.matches.length)) {
      const line = lineOf(starts, offset);
      result.matches.push({ path: row.path, line, column: offset - starts[line - 1] + 1, endLine: lineOf(starts, offset + needle.length - 1) });
    }
  }
  if (result.totalMatches === 0) result.caseInsensitiveExample = firstCaseInsensitive(store, needle, pathFilter);
  return result;
}

function firstCaseInsensitive(store: IndexStore, needle: string, pathFilter?: (path: string) => boolean): TextMatch | null {
  const lowered = needle.toLowerCase();
  const rows = filesContainingText(store, needle, { caseInsensitive: true });
  for (const row of rows) {
    if (pathFilter && !pathFilter(row.path)) continue;
    const offset = row.text.toLowerCase().indexOf(lowered);
    if (offset === -1) continue;
    const starts = lineStartsOf(row.text);
    const line = lineOf(starts, offset);
    return { path: row.path, line, column: offset - starts[line - 1] + 1, endLine: lineOf(starts, offset + needle.length - 1) };
  }
  return null;
}

const snippetInput = lazySchema(() =>
  z.strictObject({
    text: described(
      nonEmptyStringArg('text', MAX_SNIPPET_CHARS),
      'The exact code text to find (case-sensitive literal substring, may span lines; not a regex).',
    ),
    file_pattern: filePatternArg(),
    context_lines: described(
      z.optional(
        z.number().check(
          z.int('context_lines must be a whole number'),
          z.gte(0, 'context_lines must be 0, 1 or 2'),
          z.lte(2, 'context_lines must be 0, 1 or 2'),
        ),
      ),
      'Lines of context above and below each hit (0-2, default 1).',
    ),
    limit: described(z.optional(wholeNumberArg('limit', 1, 200)), 'Most matches shown (default 30); the total is always reported.'),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

interface SnippetToolData extends SnippetSearchResult {
  contextLines: number;
  filePattern: string | null;
  /** Source lines of the files with shown matches. */
  lines: Map<string, string[]>;
}

/** `find_code_snippet`: exact text search with file:line hits. */
export const findCodeSnippetTool: ToolDefinition<z.infer<ReturnType<typeof snippetInput>>, SnippetToolData> = {
  name: 'find_code_snippet',
  title: 'Find code snippet',
  description:
    'Where an exact piece of text occurs (an error message, a constant, `compute(order)`): case-sensitive literal ' +
    'match over every indexed file, path:line with context and a total count. For patterns use regex_search; ' +
    'to find code by meaning, search.',
  get inputSchema() {
    return snippetInput();
  },
  defaultBudgetTokens: 1500,
  run(args, env) {
    const store = env.repository.index.store;
    const pathFilter = pathFilterOf(args.file_pattern);
    const result = searchIndexedText(store, args.text, args.limit ?? 30, pathFilter);
    const lines = new Map<string, string[]>();
    for (const match of result.matches) {
      if (!lines.has(match.path)) lines.set(match.path, splitLines(store.fileText(match.path) ?? ''));
    }
    return { ...result, contextLines: args.context_lines ?? 1, filePattern: pathFilter ? args.file_pattern! : null, lines };
  },
  render(data, env) {
    const shown = JSON.stringify(data.text.length > 80 ? `${data.text.slice(0, 80)}…` : data.text);
    const where = data.filePattern ? ` in files matching '${data.filePattern}'` : '';
    if (data.totalMatches === 0) {
      const out = [`No exact match for ${shown}${where}.`];
      const ci = data.caseInsensitiveExample;
      if (ci) out.push(`A case-insensitive match exists at ${displayPath(ci.path)}:${ci.line}; the search is case-sensitive.`);
      else out.push('Check spacing and quotes, search a shorter distinctive part, or use search for a description.');
      return out.join('\n');
    }
    const head = [
      `${data.totalMatches} match${data.totalMatches === 1 ? '' : 'es'} of ${shown} in ${data.totalFiles} file${data.totalFiles === 1 ? '' : 's'}${where}:`,
    ];
    const { blocks, counts } = matchBlocks(data);
    const leftOut = data.totalMatches - data.matches.length;
    const footer = leftOut > 0 ? [`(+${countOf(leftOut, 'more match', 'more matches')} not shown; raise limit or narrow with file_pattern)`] : [];
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'match', plural: 'matches' }, { alreadyLeftOut: leftOut, footer, counts });
  },
  toJson(data) {
    return { text: data.text, totalMatches: data.totalMatches, totalFiles: data.totalFiles, matches: data.matches, caseInsensitiveExample: data.caseInsensitiveExample };
  },
};

/** Matches grouped into blocks: overlapping context windows of one file merge into one block. */
function matchBlocks(data: SnippetToolData): { blocks: string[][]; counts: number[] } {
  const blocks: string[][] = [];
  const counts: number[] = [];
  let current: { path: string; from: number; to: number; hits: TextMatch[] } | null = null;
  const flush = () => {
    if (!current) return;
    const lines = data.lines.get(current.path) ?? [];
    const marked = new Set<number>();
    for (const hit of current.hits) for (let l = hit.line; l <= hit.endLine; l++) marked.add(l);
    const to = Math.min(current.to, lines.length);
    const width = String(to).length;
    blocks.push([
      `${displayPath(current.path)}:${[...new Set(current.hits.map((h) => h.line))].join(',')}`,
      ...numberLines(lines.slice(current.from - 1, to), current.from, width, marked).map((l) => `  ${l}`),
    ]);
    counts.push(current.hits.length);
    current = null;
  };
  for (const match of data.matches) {
    const from = Math.max(1, match.line - data.contextLines);
    const to = match.endLine + data.contextLines;
    if (current && current.path === match.path && from <= current.to + 1) {
      current.to = Math.max(current.to, to);
      current.hits.push(match);
    } else {
      flush();
      current = { path: match.path, from, to, hits: [match] };
    }
  }
  flush();
  return { blocks, counts };
}
