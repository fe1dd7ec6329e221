/**
 * File-level documents and their BM25, next to the chunk BM25 of
 * lexical-retriever.ts: a file scored as one document rather than through its
 * best chunks. Two kinds:
 * - `identity`: the file's path parts (twice: a path names what a file is for)
 *   and the names it defines at top level and one level down (classes,
 *   functions, methods) — what the file is, not what it mentions;
 * - `content`: every token of the file (the classic whole-file BM25 of
 *   SWE-bench file localization), plus its path parts.
 * Built in memory from the index once per index state and cached; scoring is
 * a walk of the query terms' postings.
 */
import {
  BM25_B,
  BM25_K1,
  codeTokens,
  definedNamesByFile,
  definedNamesOfFiles,
  derivedKey,
  indexFilesFingerprint,
  parsedFileStates,
  snapshotOf,
  readStaleDerivedCache,
  writeDerivedCache,
  type DerivedKey,
  type IndexStore,
} from '../index/index.js';
import { patchFileIndex, type FileStates } from './file-documents-update.js';
import { MAX_TERM_WEIGHT } from './term-weight-cap.js';
import { addDocument, FilePostings, parseFileIndex, serializeFileIndex, type PackedFileIndex } from './file-postings.js';

/** Which file-level document. */
export type FileDocumentKind = 'identity' | 'content';

/** A term → file postings index over one document per indexed file. */
export interface FileDocumentIndex {
  paths: string[];
  /** Token count of each file's document. */
  lengths: Float64Array;
  averageLength: number;
  /** Per token: the files containing it (ascending) and its count in each. */
  postings: FilePostings;
  /** Milliseconds it took to build (reported by the tuning bench). */
  buildMs: number;
}

/** A file and its file-level score, higher is better. */
export interface FileScore {
  path: string;
  score: number;
}

// BM25's constants are the chunk index's (one pair for every BM25 in reponav).
const K1 = BM25_K1;
const B = BM25_B;

/**
 * An index with the file states it was built over (read lazily: only the
 * next state's patch needs them), carried to the next index state so a warm
 * process patches what it holds instead of reading the cache file back.
 */
interface HeldIndex {
  index: FileDocumentIndex;
  states: () => FileStates | null;
}

const HELD: Record<FileDocumentKind, DerivedKey<HeldIndex>> = {
  identity: derivedKey<HeldIndex>('file documents (identity)', { carried: true }),
  content: derivedKey<HeldIndex>('file documents (content)', { carried: true }),
};

/** The file-level index of `kind` for the store's current state, built on first use after every change. */
export function fileDocumentIndex(store: IndexStore, kind: FileDocumentKind): FileDocumentIndex {
  return snapshotOf(store).derive(HELD[kind], (earlier) => (earlier && patchedHeld(store, kind, earlier)) ?? loadOrBuildIndex(store, kind)).index;
}

/**
 * The index an earlier state of this process held, patched to the current
 * files, or null (its states unknown, too many changes). Not written back to
 * the cache file: a one-shot process patches that file itself, and a warm
 * process would pay the write on every edit.
 */
function patchedHeld(store: IndexStore, kind: FileDocumentKind, earlier: HeldIndex): HeldIndex | null {
  const started = performance.now();
  const before = earlier.states();
  if (!before) return null;
  const files = parsedFileStates(store);
  const index = patched(store, kind, earlier.index, before, files);
  return index && { index: { ...index, buildMs: performance.now() - started }, states: () => files };
}

/**
 * Bump when what a document holds changes (tokens, names, weights): the cache
 * file beside the index is keyed by the index's files, not by this code.
 */
const DOCUMENT_FORMAT = 2;

/**
 * The index from the cache file beside the index database when it matches
 * the index's files, else brought up to date from the stale cache file when
 * few files changed (file-documents-update.ts), else built; then stored there,
 * so one-shot processes (a CLI search) read it back instead of rebuilding it
 * (index/store/derived-cache.ts), in file-postings.ts' packed form. A second cache
 * file, `…-states`, keeps the state of each file the stored index was built
 * from, with the same fingerprint: what tells the changed files apart.
 */
function loadOrBuildIndex(store: IndexStore, kind: FileDocumentKind): HeldIndex {
  const started = performance.now();
  const name = `file-${kind}-v${DOCUMENT_FORMAT}`;
  const fingerprint = indexFilesFingerprint(store);
  // Read once: a current file is the answer, a stale one the base of a patch.
  const cached = readStaleDerivedCache(store, name);
  if (cached?.fingerprint === fingerprint) {
    const stored = parseFileIndex(cached.payload);
    if (stored) {
      const states = () => {
        const read = storedStates(store, name, fingerprint);
        return read && { paths: stored.paths, states: read };
      };
      return { index: { ...stored, buildMs: performance.now() - started }, states };
    }
  }
  const files = parsedFileStates(store);
  const index = (cached && updatedIndex(store, kind, name, cached, files)) ?? indexDocuments([...files.paths], documentsOf(store, kind, files.paths, true));
  writeDerivedCache(store, name, fingerprint, serializeFileIndex(index));
  writeDerivedCache(store, `${name}-states`, fingerprint, files.states.join('\n'));
  return { index: { ...index, buildMs: performance.now() - started }, states: () => files };
}

/**
 * The file states stored beside the index file `name` for `fingerprint`, in
 * the stored index's path order (null: gone, or rewritten by another process
 * since). Both files must come from the same write: the fingerprint line
 * pairs them; patchFileIndex refuses states that are not one per path.
 */
function storedStates(store: IndexStore, name: string, fingerprint: string): string[] | null {
  const stored = readStaleDerivedCache(store, `${name}-states`);
  if (!stored || stored.fingerprint !== fingerprint) return null;
  const text = stored.payload.toString('utf8');
  return text === '' ? [] : text.split('\n');
}

/** `previous` (built over `before`) patched to `files`, or null (see patchFileIndex: too many changes, a mismatched pair). */
function patched(store: IndexStore, kind: FileDocumentKind, previous: PackedFileIndex, before: FileStates, files: FileStates): PackedFileIndex | null {
  return patchFileIndex(previous, before, files, (paths) => documentsOf(store, kind, paths, false), maxPatched(files.paths.length));
}

/** Above this share of files changed or gone, a fresh build costs about what a patch does. */
const MAX_PATCHED_SHARE = 0.25;

/** The stored index `stale` (of an earlier index state) patched to `files`, or null (no usable stored pair, too many changes). */
function updatedIndex(
  store: IndexStore,
  kind: FileDocumentKind,
  name: string,
  stale: { fingerprint: string; payload: Buffer },
  files: FileStates,
): PackedFileIndex | null {
  const states = storedStates(store, name, stale.fingerprint);
  const previous = states && parseFileIndex(stale.payload);
  return previous ? patched(store, kind, previous, { paths: previous.paths, states: states! }, files) : null;
}

/** The most files changed or gone that a patch takes on for an index of `files` files. */
function maxPatched(files: number): number {
  return Math.max(16, Math.floor(files * MAX_PATCHED_SHARE));
}

/**
 * The documents of `paths`: for `identity` the path parts twice (a path names
 * what a file is for) and the names defined at top level and one level down;
 * for `content` the path parts and every token of the file. `all` says the
 * paths are every parsed file (one query for all names instead of a filtered one).
 */
function documentsOf(store: IndexStore, kind: FileDocumentKind, paths: readonly string[], all: boolean): string[][] {
  const names = kind === 'identity' ? (all ? definedNamesByFile(store, 1) : definedNamesOfFiles(store, paths, 1)) : null;
  return paths.map((path) => {
    const pathTokens = codeTokens(path.replace(/\.[A-Za-z0-9]+$/, ''));
    const rest = names ? (names.get(path) ?? []).flatMap((name) => codeTokens(name)) : codeTokens(store.fileText(path) ?? '');
    return names ? [...pathTokens, ...pathTokens, ...rest] : [...pathTokens, ...rest];
  });
}

/** Builds postings over already tokenized documents (exported for tests). */
export function indexDocuments(paths: string[], documents: string[][]): Omit<FileDocumentIndex, 'buildMs'> {
  const postings = new Map<string, { files: number[]; counts: number[] }>();
  const lengths = new Float64Array(paths.length);
  let total = 0;
  documents.forEach((tokens, file) => {
    lengths[file] = tokens.length;
    total += tokens.length;
    addDocument(postings, file, tokens);
  });
  return { paths, lengths, averageLength: paths.length ? total / paths.length : 0, postings: FilePostings.fromLists(postings) };
}

/**
 * BM25 of every file matching any query term, best first (equal scores by
 * path): Σ weight × idf × saturated term frequency, with weights capped at 4
 * and idf = ln(1 + (N − n + 0.5) / (n + 0.5)), which stays positive for
 * common terms (they add little, as in the chunk ranking).
 */
export function scoreFileDocuments(index: FileDocumentIndex, terms: readonly { token: string; weight: number }[]): FileScore[] {
  const { touched, scores } = fileDocumentScores(index, terms);
  return touched
    .map((file) => ({ path: index.paths[file]!, score: scores[file]! }))
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * {@link scoreFileDocuments}' scores, unsorted: the files matching any term
 * (`touched`, in the order first met) and the dense score of every file, for
 * callers that sort once themselves.
 */
export function fileDocumentScores(index: FileDocumentIndex, terms: readonly { token: string; weight: number }[]): { touched: number[]; scores: Float64Array } {
  const n = index.paths.length;
  // Dense scores and a list of touched files: no per-posting map lookups.
  const scores = new Float64Array(n);
  const touched: number[] = [];
  const seen = new Set<string>();
  for (const term of terms) {
    if (seen.has(term.token)) continue;
    seen.add(term.token);
    const list = index.postings.get(term.token);
    const weight = Math.min(MAX_TERM_WEIGHT, term.weight);
    if (!list || !(weight > 0)) continue;
    const idf = Math.log(1 + (n - list.files.length + 0.5) / (list.files.length + 0.5));
    for (let i = 0; i < list.files.length; i++) {
      const file = list.files[i]!;
      const tf = list.counts[i]!;
      const norm = K1 * (1 - B + (B * index.lengths[file]!) / (index.averageLength || 1));
      if (scores[file] === 0) touched.push(file);
      scores[file] += (weight * idf * tf * (K1 + 1)) / (tf + norm);
    }
  }
  return { touched, scores };
}
