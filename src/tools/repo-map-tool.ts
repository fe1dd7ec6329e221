/**
 * repo_map: the repository at a glance with no query — files ranked by
 * centrality over the import and call graph (PageRank, personalised toward
 * `focus` when given), each with its most important symbols' signatures,
 * the files that do not fit summarised by folder. Deterministic; ties by path.
 */
import * as z from '../zod-mini.js';
import { derivedKey, displayPath, snapshotOf, type IndexStore, type MapSymbolRow } from '../index/index.js';
import { fileGraph, mapSymbolRows, pageRank, rankedFiles, type FileGraph } from '../retrieve/index.js';
import { lineCost } from '../budget/index.js';
import { clipLine } from './output-budget.js';
import { lookupSymbols } from './symbol-lookup.js';
import { budgetArg, described, filePatternArg, lazySchema, MAX_NAME_CHARS, nonEmptyStringArg, pathFilterOf, repoArg } from './tool-args.js';
import type { ToolDefinition, ToolEnvironment } from './tool-types.js';
import { countOf } from '../plural.js';

/** Most focus items one call takes. */
export const MAX_FOCUS = 20;

/** Characters of a signature shown in the map. */
const SIGNATURE_CHARS = 120;

const repoMapInput = lazySchema(() =>
  z.strictObject({
    focus: described(
      z.optional(z.array(nonEmptyStringArg('focus item', MAX_NAME_CHARS)).check(z.maxLength(MAX_FOCUS, `focus takes at most ${MAX_FOCUS} files or symbols`))),
      'Files or symbols to centre the map on (`src/cart.ts`, `Cart.checkout`): they come first, then the files central to them.',
    ),
    file_pattern: filePatternArg(),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

type RepoMapInput = z.infer<ReturnType<typeof repoMapInput>>;

/** A symbol as the map shows it. */
export interface MapSymbol {
  qualifiedName: string;
  kind: string;
  signature: string;
  startLine: number;
  endLine: number;
}

/** A file as the map shows it. */
export interface MapFile {
  path: string;
  /** 1-based position in the ranking. */
  rank: number;
  /** The PageRank score, rounded to 6 significant digits. */
  score: number;
  importedBy: number;
  symbols: MapSymbol[];
  /** Symbols of the file not shown. */
  symbolsLeftOut: number;
}

/** What repo_map answers. */
export interface RepoMapData {
  repository: string;
  /** Files ranked (parsed files, after file_pattern). */
  totalFiles: number;
  focus: { files: string[]; unresolved: string[] };
  files: MapFile[];
  /** Files left out, summarised by folder, best-ranked folders first. */
  folders: Array<{ path: string; files: number }>;
  /** Folders left out of the summary too. */
  foldersLeftOut: number;
  filesLeftOut: number;
  truncated: boolean;
  /** The rendered lines (the text is these plus nothing else). */
  lines: string[];
}

/** Resolves focus items to file indexes: a path (file, or a folder's files), else a symbol name's defining files. */
function resolveFocus(graph: FileGraph, items: readonly string[], env: ToolEnvironment): { files: number[]; unresolved: string[] } {
  const files = new Set<number>();
  const unresolved: string[] = [];
  for (const raw of items) {
    const item = raw.trim().replace(/^\.\/+/, '').replace(/\/+$/, '');
    const exact = graph.indexOf.get(item);
    if (exact !== undefined) {
      files.add(exact);
      continue;
    }
    const below = graph.paths.flatMap((p, i) => (p.startsWith(`${item}/`) ? [i] : []));
    if (below.length > 0) {
      below.forEach((i) => files.add(i));
      continue;
    }
    const defining = lookupSymbols(env.repository.index.store, item, { category: 'any', maxCandidates: 500 }).matches;
    const found = defining.map((s) => graph.indexOf.get(s.path)).filter((i): i is number => i !== undefined);
    if (found.length === 0) unresolved.push(raw);
    found.forEach((i) => files.add(i));
  }
  return { files: [...files].sort((a, b) => a - b), unresolved };
}

/** A file's symbols to show: top-level and members, most called from other files first, at most `max`, in source order. */
function chooseSymbols(symbols: readonly MapSymbolRow[], graph: FileGraph, max: number): { shown: MapSymbolRow[]; leftOut: number } {
  const candidates = symbols.filter((s) => s.qualifiedName.split('.').length <= 2);
  const weight = (s: MapSymbolRow) => (graph.callersOfName.get(s.name) ?? 0) + (s.parent === null ? 0.5 : 0) - (s.name.startsWith('_') ? 0.25 : 0);
  const best = [...candidates].sort((a, b) => weight(b) - weight(a) || a.startLine - b.startLine || (a.qualifiedName < b.qualifiedName ? -1 : 1)).slice(0, max);
  // A shown member brings its class line, so the indentation reads right.
  const chosen = new Set(best);
  for (const s of best) {
    if (s.parent === null) continue;
    const owner = candidates.find((c) => c.qualifiedName === s.parent);
    if (owner) chosen.add(owner);
  }
  const shown = candidates.filter((s) => chosen.has(s));
  return { shown, leftOut: candidates.length - shown.length };
}

function symbolLine(s: MapSymbol, nested: boolean): string {
  const signature = clipLine(s.signature.replace(/\s+/g, ' ').trim() || s.qualifiedName, SIGNATURE_CHARS);
  return `${nested ? '    ' : '  '}${signature}  L${s.startLine}`;
}

function fileLines(file: MapFile, withSymbols: boolean): string[] {
  const facts = [`#${file.rank}`];
  if (file.importedBy > 0) facts.push(`imported by ${file.importedBy}`);
  const more = withSymbols ? file.symbolsLeftOut : file.symbolsLeftOut + file.symbols.length;
  if (more > 0) facts.push(countOf(more, 'more symbol', 'more symbols'));
  const head = `${displayPath(file.path)}  (${facts.join(', ')})`;
  if (!withSymbols) return [head];
  return [head, ...file.symbols.map((s) => symbolLine(s, s.qualifiedName.includes('.')))];
}

/** Folder of a left-out file for the summary: its first two segments (or its folder when shallower). */
function summaryFolder(path: string): string {
  const parts = path.split('/');
  if (parts.length === 1) return '.';
  return parts.slice(0, Math.min(2, parts.length - 1)).join('/');
}

/**
 * Every ranked file's summary folder, by file index, derived once per graph (one index state): the
 * folder summary visits every file left out, thousands per call on a large repository.
 */
const SUMMARY_FOLDERS = derivedKey<string[]>('summary folders');
function summaryFoldersOf(store: IndexStore): string[] {
  return snapshotOf(store).derive(SUMMARY_FOLDERS, () => fileGraph(store).paths.map(summaryFolder));
}

function roundScore(value: number): number {
  return Number(value.toPrecision(6));
}

/** `repo_map`: a ranked, budgeted overview of the repository. */
export const repoMapTool: ToolDefinition<RepoMapInput, RepoMapData> = {
  name: 'repo_map',
  title: 'Repository map',
  description:
    'The repository at a glance, no query needed: files ranked by how central they are in the import and call graph, ' +
    'each with its key signatures (no bodies); the rest summarised by folder. focus (files or symbols) centres it. ' +
    'Use first in an unknown repository; use search once you have a question.',
  get inputSchema() {
    return repoMapInput();
  },
  defaultBudgetTokens: 1000,
  run(args, env) {
    const store = env.repository.index.store;
    const graph = fileGraph(store);
    const focus = args.focus && args.focus.length > 0 ? resolveFocus(graph, args.focus, env) : { files: [], unresolved: [] };
    const ranks = focus.files.length > 0 ? pageRank(graph, focus.files) : graph.baseRanks;
    const matches = pathFilterOf(args.file_pattern);
    const ranked = (focus.files.length > 0 ? rankedFiles(graph, ranks) : graph.baseOrder).filter((i) => !matches || matches(graph.paths[i]));
    // The files the caller named come first (by rank among themselves), then what the focus makes central.
    const named = new Set(focus.files);
    const order = [...ranked.filter((i) => named.has(i)), ...ranked.filter((i) => !named.has(i))];
    const head = [
      `[MAP] ${env.repository.name}: ${countOf(order.length, 'file')} ranked by import/call centrality` +
        (focus.files.length > 0 ? `, centred on ${args.focus!.filter((f) => !focus.unresolved.includes(f)).join(', ')}` : ''),
    ];
    if (focus.unresolved.length > 0) head.push(`(focus not found, ignored: ${focus.unresolved.join(', ')})`);
    // Room kept for the folder summary and the truncation line.
    const worstNote = `[TRUNCATED] ${countOf(order.length, 'file')} left out to stay within ${env.budgetTokens} tokens; ask with focus, file_pattern or a larger budget_tokens.`;
    const reserve = Math.max(lineCost(worstNote), Math.min(200, Math.floor(env.budgetTokens * 0.15)));
    let used = head.reduce((sum, line) => sum + lineCost(line), 0);
    const lines = [...head];
    const files: MapFile[] = [];
    let position = 0;
    for (; position < order.length; position++) {
      const i = order[position];
      const path = graph.paths[i];
      const perFile = position < 10 ? 8 : position < 40 ? 4 : 2;
      const { shown, leftOut } = chooseSymbols(mapSymbolRows(graph, store, path), graph, perFile);
      const file: MapFile = {
        path,
        rank: position + 1,
        score: roundScore(ranks[i]),
        importedBy: graph.importedBy[i],
        symbols: shown.map((s) => ({ qualifiedName: s.qualifiedName, kind: s.kind, signature: s.signature, startLine: s.startLine, endLine: s.endLine })),
        symbolsLeftOut: leftOut,
      };
      let block = fileLines(file, true);
      let cost = block.reduce((sum, line) => sum + lineCost(line), 0);
      if (used + cost > env.budgetTokens - reserve) {
        // Under pressure a file keeps its line and loses its symbols.
        block = fileLines(file, false);
        cost = block.reduce((sum, line) => sum + lineCost(line), 0);
        if (used + cost > env.budgetTokens - reserve) break;
        file.symbolsLeftOut += file.symbols.length;
        file.symbols = [];
      }
      used += cost;
      lines.push(...block);
      files.push(file);
    }
    const rest = order.slice(position);
    const folders: Array<{ path: string; files: number }> = [];
    let foldersLeftOut = 0;
    if (rest.length > 0) {
      const byFolder = new Map<string, { files: number; score: number }>();
      const folderOf = summaryFoldersOf(store);
      for (const i of rest) {
        const folder = folderOf[i];
        const entry = byFolder.get(folder) ?? { files: 0, score: 0 };
        entry.files++;
        entry.score += ranks[i];
        byFolder.set(folder, entry);
      }
      const sorted = [...byFolder.entries()].sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1));
      const note = `[TRUNCATED] ${countOf(rest.length, 'file')} left out to stay within ${env.budgetTokens} tokens; ask with focus, file_pattern or a larger budget_tokens.`;
      const room = env.budgetTokens - used - lineCost(note);
      let summary = '[FOLDERS] more files in:';
      for (const [path, entry] of sorted) {
        const piece = ` ${path === '.' ? '(root)' : `${displayPath(path)}/`} ${entry.files}${folders.length < sorted.length - 1 ? ',' : ''}`;
        if (lineCost(summary + piece + ' … 9999 more folders') > room) break;
        summary += piece;
        folders.push({ path, files: entry.files });
      }
      if (folders.length < sorted.length) summary = `${summary.replace(/,$/, '')} … ${countOf(sorted.length - folders.length, 'more folder', 'more folders')}`;
      if (lineCost(summary) <= room) lines.push(summary);
      else folders.length = 0;
      foldersLeftOut = sorted.length - folders.length;
      lines.push(note);
    }
    return {
      repository: env.repository.name,
      totalFiles: order.length,
      focus: { files: focus.files.map((i) => graph.paths[i]), unresolved: focus.unresolved },
      files,
      folders,
      foldersLeftOut,
      filesLeftOut: rest.length,
      truncated: rest.length > 0,
      lines,
    };
  },
  render(data) {
    return data.lines.join('\n');
  },
  toJson({ lines: _lines, ...data }) {
    return data;
  },
};
