/**
 * The first answer on a repository that has no index yet: files ranked by a
 * plain text scan for the query's words, while the index builds in the
 * background. It costs a listing of the tree and about one `rg` over its files
 * (ripgrep does the scan when it is installed; otherwise a read of every file
 * here), so an agent is not kept waiting for a cold index. The files scanned
 * are the index's listing (every rule layer the index honours, and the
 * tracked-files rule), so it never ranks a file the index would leave out. It is never a substitute for the
 * index: no symbols, no scaffold, a rough score, and evaluation never uses it.
 * The score carries the indexed search's path prior (path-prior.ts: tests,
 * stubs, code outside the library the packaging files declare), read here from
 * the tree, so tests and benchmarks that repeat the query words do not come
 * first where the index would rank the library first.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { languageForPath } from '../parse/index.js';
import { BM25_K1, DEFAULT_MAX_FILE_BYTES, WorktreeSource } from '../index/index.js';
import { parseQuery } from './query-parser.js';
import { DEFAULT_PRIOR_FACTORS, priorOfLibrary } from './path-prior.js';
import { libraryRoots, type PackagingView } from './repository-layout.js';

/** One file of a provisional answer. */
export interface ProvisionalFile {
  path: string;
  score: number;
  /** Occurrences of query words found (counted up to a cap per file). */
  matches: number;
  /** The query words found in it, most weighty first. */
  terms: string[];
  /** A line holding its weightiest word, for orientation. */
  line: number | null;
  preview: string | null;
}

/** A provisional answer. */
export interface ProvisionalResult {
  provisional: true;
  query: string;
  files: ProvisionalFile[];
  /** What scanned: `rg` or this process. */
  scanner: 'rg' | 'node';
}

/** The index's own rules beyond the ignore files (its settings): what a listing made here applies. */
export interface ProvisionalRules {
  include?: string[];
  exclude?: string[];
  excludeDirectories?: string[];
}

/** Options of a provisional scan. */
export interface ProvisionalOptions {
  limit?: number;
  maxFileBytes?: number;
  pathFilter?: (path: string) => boolean;
  /**
   * The files the index lists (its source's listing, repository-relative):
   * the scan reads these and no other, so its answer holds what the index
   * would hold. Absent: the tree is listed here by the same rules
   * (WorktreeSource with `rules` and `maxFileBytes`).
   */
  files?: readonly string[];
  rules?: ProvisionalRules;
}

/** Most query words scanned for (the weightiest); more only slows the scan. */
const MAX_TERMS = 24;
/** Matching lines counted per file and word set: enough to rank, bounded output on huge files. */
const MAX_LINES_PER_FILE = 30;

/** Scans the working tree at `root` for the query's words and ranks files; see the module comment. */
export async function provisionalSearch(root: string, query: string, options: ProvisionalOptions = {}): Promise<ProvisionalResult> {
  const weights = new Map<string, number>();
  for (const term of parseQuery(query).terms) {
    const token = term.token.toLowerCase();
    if (token.length >= 3) weights.set(token, Math.max(weights.get(token) ?? 0, term.weight));
  }
  const terms = [...weights.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_TERMS).map(([t]) => t);
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  let counts: Map<string, Map<string, number>>;
  let scanner: ProvisionalResult['scanner'] = 'rg';
  if (terms.length === 0) counts = new Map();
  else {
    // The index's listing, not a walk of its own: ignore files (.reponavignore and the rest, in their
    // precedence), --include/--exclude and the tracked-files rule then decide the scan as they decide the index.
    const listed = (options.files ?? (await listedFiles(root, maxFileBytes, options.rules))).filter((path) => languageForPath(path) !== null);
    const fromRg = await scanWithRipgrep(root, listed, terms, maxFileBytes);
    if (fromRg) counts = fromRg;
    else {
      scanner = 'node';
      counts = scanInProcess(root, listed, terms);
    }
  }
  const scanned = [...counts.keys()];
  const files = scanned.filter((path) => options.pathFilter?.(path) ?? true).map((path) => [path, counts.get(path)!] as const);
  const documentFrequency = new Map<string, number>();
  for (const [, byTerm] of files) for (const term of byTerm.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const n = files.length;
  // From the files before the path filter: which folders hold files is a fact about the tree, not about this search.
  const prior = priorOfLibrary(libraryRoots(packagingOnDisk(root, scanned)), DEFAULT_PRIOR_FACTORS);
  const ranked: ProvisionalFile[] = files.map(([path, byTerm]) => {
    let score = 0;
    let matches = 0;
    for (const [term, tf] of byTerm) {
      const df = documentFrequency.get(term) ?? 1;
      // BM25's idf and saturation, without lengths (a scan does not know them).
      score += (weights.get(term) ?? 1) * Math.log(1 + (n - df + 0.5) / (df + 0.5)) * ((tf * (BM25_K1 + 1)) / (tf + BM25_K1));
      matches += tf;
    }
    score *= prior(path);
    const found = [...byTerm.keys()].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0) || (a < b ? -1 : 1));
    return { path, score: Math.round(score * 1000) / 1000, matches, terms: found, line: null, preview: null };
  });
  ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
  const top = ranked.slice(0, options.limit ?? 10);
  for (const file of top) Object.assign(file, previewOf(root, file.path, file.terms[0]));
  return { provisional: true, query, files: top, scanner };
}

/**
 * The packaging as the index would see it, without a listing of the tree: the
 * root's packaging files and top-level package folders read from disk (a few
 * reads), and for "a folder holds files" the files the scan matched (a built
 * `dist/` on disk, which the index skips as ignored, must not count). A
 * declared folder that matched none of the query words holds no ranked file;
 * it matters only when it was the sole library root: the library is then
 * unknown and code outside it keeps its score, as with no metadata.
 */
function packagingOnDisk(root: string, scanned: string[]): PackagingView {
  return {
    text(name) {
      try {
        return readFileSync(join(root, name), 'utf8');
      } catch {
        return null;
      }
    },
    packageInits() {
      const inits: string[] = [];
      for (const parent of ['', 'src/']) {
        let entries;
        try {
          entries = readdirSync(join(root, parent), { withFileTypes: true });
        } catch {
          continue;
        }
        for (const entry of entries) {
          const init = `${parent}${entry.name}/__init__.py`;
          if (entry.isDirectory() && existsSync(join(root, init))) inits.push(init);
        }
      }
      return inits;
    },
    holdsFiles: (folder) => scanned.some((path) => path.startsWith(folder)),
  };
}

/** The files a listing of the tree by the index's rules holds. */
async function listedFiles(root: string, maxFileBytes: number, rules: ProvisionalRules = {}): Promise<string[]> {
  const source = await WorktreeSource.open(root, { maxFileBytes, useGit: false, ...rules });
  return (await source.list()).files.map((file) => file.path);
}

/** Most bytes of paths given to one ripgrep run (well under the kernel's limit on a command line). */
const MAX_ARGUMENT_BYTES = 200_000;

/**
 * Per file, per word, how many matches ripgrep found in `files` (named on its
 * command line, in runs of at most MAX_ARGUMENT_BYTES of paths: a file named
 * there is searched whatever ignore file would skip it in a walk, so the
 * listing alone decides); null when rg cannot run.
 */
async function scanWithRipgrep(root: string, files: readonly string[], terms: string[], maxFileBytes: number): Promise<Map<string, Map<string, number>> | null> {
  const counts = new Map<string, Map<string, number>>();
  let batch: string[] = [];
  let bytes = 0;
  for (const [i, path] of files.entries()) {
    batch.push(path);
    bytes += Buffer.byteLength(path) + 1;
    if (bytes < MAX_ARGUMENT_BYTES && i < files.length - 1) continue;
    if (!(await ripgrepRun(root, batch, terms, maxFileBytes, counts))) return null;
    batch = [];
    bytes = 0;
  }
  return counts;
}

/** One ripgrep run over `files`, its counts added to `counts`; false when rg cannot run. */
function ripgrepRun(root: string, files: readonly string[], terms: string[], maxFileBytes: number, counts: Map<string, Map<string, number>>): Promise<boolean> {
  const args = ['--no-config', '--no-messages', '--no-ignore', '--hidden', '-i', '-F', '-o', '--no-heading', '--with-filename', '--color', 'never'];
  args.push('-m', String(MAX_LINES_PER_FILE), '--max-filesize', String(maxFileBytes));
  // `-o` reports non-overlapping, leftmost-first matches: longer words first, so `compute_value_42` is not
  // cut short by `compute`; the shorter words inside a match are credited below, as the in-process scan counts them.
  const longestFirst = [...terms].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  for (const term of longestFirst) args.push('-e', term);
  args.push('--', ...files);
  return new Promise((resolve) => {
    let rest = '';
    let child;
    try {
      child = spawn('rg', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      resolve(false);
      return;
    }
    const take = (line: string) => {
      // `path:match`; a path may hold ':' but the match (a query word) never does.
      const colon = line.lastIndexOf(':');
      if (colon <= 0) return;
      const path = line.slice(line.startsWith('./') ? 2 : 0, colon);
      const match = line.slice(colon + 1).toLowerCase();
      let byTerm = counts.get(path);
      if (!byTerm) counts.set(path, (byTerm = new Map()));
      for (const term of terms) {
        const inside = occurrences(match, term);
        if (inside > 0) byTerm.set(term, (byTerm.get(term) ?? 0) + inside);
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) take(line);
    });
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      if (rest) take(rest);
      // 0: matches, 1: none; anything else (2: an error such as a bad flag) means we cannot trust the scan.
      resolve(code === 0 || code === 1);
    });
  });
}

/** Occurrences of `term` in `text`, not overlapping each other, counted up to `limit`. */
function occurrences(text: string, term: string, limit = Infinity): number {
  let found = 0;
  for (let at = text.indexOf(term); at >= 0 && found < limit; at = text.indexOf(term, at + term.length)) found++;
  return found;
}

/** The same counts without ripgrep: `files` read here. */
function scanInProcess(root: string, files: readonly string[], terms: string[]): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  for (const path of files) {
    let text: string;
    try {
      text = readFileSync(join(root, path), 'utf8').toLowerCase();
    } catch {
      continue;
    }
    for (const term of terms) {
      const found = occurrences(text, term, MAX_LINES_PER_FILE);
      if (found === 0) continue;
      let byTerm = counts.get(path);
      if (!byTerm) counts.set(path, (byTerm = new Map()));
      byTerm.set(term, found);
    }
  }
  return counts;
}

function previewOf(root: string, path: string, term: string | undefined): { line: number | null; preview: string | null } {
  if (!term) return { line: null, preview: null };
  try {
    const lines = readFileSync(join(root, path), 'utf8').split('\n');
    const index = lines.findIndex((l) => l.toLowerCase().includes(term));
    if (index < 0) return { line: null, preview: null };
    return { line: index + 1, preview: lines[index].trim().slice(0, 160) };
  } catch {
    return { line: null, preview: null };
  }
}
