/**
 * list_files: a folder as the index sees it — its files and folders to a
 * depth, each file with language, size, symbol count and whether it is
 * indexed (and if not, why), in pages. Never outside the root.
 */
import * as z from '../zod-mini.js';
import { displayPath, folderChildren, notIndexedReason, resolveListingPath, symbolCounts, type FileRow } from '../index/index.js';
import { renderBlocks } from './output-budget.js';
import { budgetArg, described, filePatternArg, lazySchema, pathFilterOf, repoArg, wholeNumberArg } from './tool-args.js';
import type { ToolDefinition, ToolEnvironment } from './tool-types.js';
import { countOf } from '../plural.js';

/** Most entries one page holds. */
export const MAX_LIST_LIMIT = 1000;

const listFilesInput = lazySchema(() =>
  z.strictObject({
    path: described(
      z.optional(z.string().check(z.maxLength(4096, 'path is limited to 4096 characters'))),
      'Folder to list, repository-relative (default: the root).',
    ),
    depth: described(z.optional(wholeNumberArg('depth', 1, 20)), 'How many levels below the folder to show (default 1: its children).'),
    file_pattern: filePatternArg(),
    offset: described(z.optional(wholeNumberArg('offset', 0, 10_000_000)), 'Skip this many entries (paging; the answer names the next offset).'),
    limit: described(z.optional(wholeNumberArg('limit', 1, MAX_LIST_LIMIT)), `Entries per page (default 200, at most ${MAX_LIST_LIMIT}).`),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

type ListFilesInput = z.infer<ReturnType<typeof listFilesInput>>;

/** One listed file or folder. */
export interface ListedEntry {
  path: string;
  kind: 'file' | 'folder';
  /** Levels below the listed folder (1: a child). */
  depth: number;
  /** Files: the index's language (`unknown` for text without a parser); null when not indexed. */
  language: string | null;
  /** Files: bytes; null for folders and unknown sizes. */
  size: number | null;
  /** Files: symbols defined; folders: null. */
  symbols: number | null;
  /** Folders: indexed files below (matching file_pattern when given); files: null. */
  indexedFiles: number | null;
  indexed: boolean;
  /** When not indexed: ignored, vendored, binary, too-large, … */
  reason: string | null;
  /** The rule behind an ignored or vendored entry, e.g. "'build/' in .gitignore". */
  rule: string | null;
}

/** What list_files answers. */
export interface ListFilesData {
  path: string;
  /** What `path` names: a folder (listed below it) or one file (listed alone). */
  kind: 'file' | 'folder';
  depth: number;
  filePattern: string | null;
  total: number;
  offset: number;
  /** The offset of the next page, or null on the last one. */
  nextOffset: number | null;
  entries: ListedEntry[];
}

interface Walked {
  path: string;
  kind: 'file' | 'folder';
  depth: number;
  size: number | null;
}

/** Indexed files below each folder (every ancestor of each path), counting only `matches`. */
function indexedCounts(paths: readonly string[], matches: ((path: string) => boolean) | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const path of paths) {
    if (matches && !matches(path)) continue;
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
      const folder = path.slice(0, i);
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
    }
  }
  return counts;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** One entry as a line: `  src/app.py  python  2.1 KiB  12 symbols`. */
export function entryLine(entry: ListedEntry, base: string): string {
  const indent = '  '.repeat(entry.depth - 1);
  const name = (base === '' ? entry.path : entry.path.slice(base.length + 1)) + (entry.kind === 'folder' ? '/' : '');
  const parts = [`${indent}${name}`];
  if (entry.kind === 'folder') parts.push(countOf(entry.indexedFiles ?? 0, 'indexed file'));
  else {
    if (entry.language) parts.push(entry.language);
    if (entry.size !== null) parts.push(sizeText(entry.size));
    if (entry.indexed) parts.push(countOf(entry.symbols ?? 0, 'symbol'));
  }
  if (!entry.indexed && entry.reason) parts.push(`not indexed: ${entry.reason}${entry.rule ? ` (${entry.rule})` : ''}`);
  else if (!entry.indexed && entry.kind === 'file') parts.push('not indexed yet');
  return parts.join('  ');
}

/** `list_files`: a folder's files and folders, indexed or not. */
export const listFilesTool: ToolDefinition<ListFilesInput, ListFilesData> = {
  name: 'list_files',
  title: 'List files and folders',
  description:
    'List a folder as the index sees it: files and subfolders to a depth, each file with language, size, symbol count, ' +
    'and whether it is indexed (if not, why: ignored, vendored, binary, too large). Paged. Use to explore layout; ' +
    'search or repo_map to find what matters.',
  get inputSchema() {
    return listFilesInput();
  },
  defaultBudgetTokens: 2000,
  run(args, env) {
    const { index } = env.repository;
    const source = index.source;
    const store = index.store;
    const depth = args.depth ?? 1;
    const matches = pathFilterOf(args.file_pattern);
    const target = resolveListingPath(source, args.path ?? '');
    const walked: Walked[] = [];
    if (target.kind === 'file') {
      const row = store.file(target.path);
      walked.push({ path: target.path, kind: 'file', depth: 1, size: row?.size ?? null });
    } else {
      const visit = (dir: string, level: number) => {
        for (const child of folderChildren(source, dir)) {
          walked.push({ ...child, depth: level });
          if (child.kind === 'folder' && level < depth) visit(child.path, level + 1);
        }
      };
      visit(target.path, 1);
    }
    const counts = indexedCounts(store.filePaths(), matches);
    const rows = new Map<string, FileRow>();
    const kept = walked.filter((w) => (w.kind === 'file' ? !matches || matches(w.path) : !matches || (counts.get(w.path) ?? 0) > 0));
    const offset = args.offset ?? 0;
    const limit = args.limit ?? 200;
    const page = kept.slice(offset, offset + limit);
    const filePaths = page.filter((w) => w.kind === 'file').map((w) => w.path);
    for (const row of store.filesAt(filePaths)) if (filePaths.includes(row.path)) rows.set(row.path, row);
    const symbols = symbolCounts(store, filePaths);
    const skipped = store.skippedFiles();
    const entries = page.map((w): ListedEntry => {
      if (w.kind === 'folder') {
        const indexedFiles = counts.get(w.path) ?? 0;
        const why = indexedFiles === 0 ? notIndexedReason(source, skipped, w.path, true) : null;
        return { path: w.path, kind: 'folder', depth: w.depth, language: null, size: null, symbols: null, indexedFiles, indexed: indexedFiles > 0, reason: why?.reason ?? null, rule: why?.rule ?? null };
      }
      const row = rows.get(w.path);
      if (row) {
        return { path: w.path, kind: 'file', depth: w.depth, language: row.language, size: row.size, symbols: symbols.get(w.path) ?? 0, indexedFiles: null, indexed: true, reason: null, rule: null };
      }
      const why = notIndexedReason(source, skipped, w.path, false);
      return { path: w.path, kind: 'file', depth: w.depth, language: null, size: w.size, symbols: null, indexedFiles: null, indexed: false, reason: why?.reason ?? null, rule: why?.rule ?? null };
    });
    const nextOffset = offset + page.length < kept.length ? offset + page.length : null;
    return { path: target.path, kind: target.kind, depth, filePattern: args.file_pattern ?? null, total: kept.length, offset, nextOffset, entries };
  },
  render(data, env: ToolEnvironment) {
    if (data.kind === 'file') {
      // One file: its own row, named as in its folder (not a folder of that name with an empty row).
      const folder = data.path.includes('/') ? data.path.slice(0, data.path.lastIndexOf('/')) : '';
      const rows = data.entries.map((e) => [entryLine(e, folder)]);
      return renderBlocks([`[LS] ${displayPath(data.path)} (a file): ${countOf(data.entries.length, 'entry', 'entries')}`], rows, env.budgetTokens, { singular: 'entry', plural: 'entries' });
    }
    const where = data.path === '' ? '(root)' : `${displayPath(data.path)}/`;
    const range = data.entries.length > 0 ? ` ${data.offset + 1}-${data.offset + data.entries.length} of ${data.total}` : ` none of ${data.total}`;
    const filter = data.filePattern ? `, matching ${data.filePattern}` : '';
    const head = [`[LS] ${where} depth ${data.depth}${filter}:${range} ${data.total === 1 ? 'entry' : 'entries'}`];
    if (data.entries.length === 0 && data.total === 0) head.push('(nothing listed here)');
    const blocks = data.entries.map((e) => [entryLine(e, data.path)]);
    const footer = data.nextOffset !== null ? [`[MORE] ${countOf(data.total - data.nextOffset, 'more entry', 'more entries')}; call list_files with offset=${data.nextOffset}.`] : [];
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'entry', plural: 'entries' }, { footer, alreadyLeftOut: data.nextOffset !== null ? data.total - data.nextOffset : 0 });
  },
  toJson(data) {
    return data;
  },
};
