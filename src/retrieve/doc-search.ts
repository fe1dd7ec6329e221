/**
 * Documentation search: the prose files of an index (Markdown, RST, plain
 * text; see parse/prose-outline.ts) cut into sections — each heading's own
 * lines, the lines before the first heading, or the whole file when it has
 * none — and ranked by BM25 over the section's heading path (×3), file name
 * and text. A corpus of its own, beside the code chunks': prose words would
 * change every code term's IDF and length norm, so code rankings stay exactly
 * what they are without docs. Built in memory once per index state, from the
 * text the index already stores for every file.
 *
 * Where docs go in an answer is {@link documentPlacement}'s decision: below
 * the code for an issue-like query, on equal terms when the query asks how
 * to use something or its file pattern selects prose files.
 */
import { BM25_B, BM25_K1, codeTokens, derivedKey, readDerivedCache, snapshotOf, unparsedFilesFingerprint, writeDerivedCache, type IndexStore } from '../index/index.js';
import { proseFormatOf, proseOutline, type ProseFormat } from '../parse/index.js';
import type { ParsedQuery, QueryTerm } from './query-parser.js';
import { isTestPath } from './path-prior.js';
import type { DocHit, DocPlacement } from './retrieval-types.js';
import { MAX_TERM_WEIGHT } from './term-weight-cap.js';
import { FilePostings, parsePostings, serializePostings } from './file-postings.js';

/** Larger prose files are left out (generated references, data dumps). */
const MAX_FILE_CHARS = 1_000_000;
/** Tokens of one section's text that count (as the code chunks cap their bodies). */
const MAX_SECTION_TOKENS = 2000;
/** Weight of a heading token relative to a text token (a heading says what the section is about). */
const HEADING_WEIGHT = 3;
// BM25's constants are the chunk index's (one pair for every BM25 in reponav).
const K1 = BM25_K1;
const B = BM25_B;
/** Plain-text files that are not documentation: dependency pins, licences, credits. */
const NOT_DOCS = /(^|\/)(requirements[^/]*|constraints[^/]*|licen[cs]e[^/]*|copying[^/]*|authors[^/]*|notice[^/]*|robots|cmakelists)\.txt$/i;

interface Section {
  path: string;
  /** The heading's qualified name (`Testing > The Test Client`), or null for lines before any heading. */
  title: string | null;
  startLine: number;
  endLine: number;
  length: number;
}

interface DocCorpus {
  sections: Section[];
  averageLength: number;
  /** Per token: section ids (ascending) and the token's weighted count in each (whole numbers: weights 1 and {@link HEADING_WEIGHT}). */
  postings: FilePostings;
  /** Every prose path in the corpus. */
  paths: string[];
  /** The unparsed files' fingerprint it was built from (index/store/derived-cache.ts). */
  fingerprint: string;
}

// Carried: an edit of a code file leaves the corpus as it is, so the next state takes it over.
const CORPUS = derivedKey<DocCorpus>('documentation corpus', { carried: true });

/**
 * The documentation corpus of the store's current state: an earlier state's
 * when no unparsed file changed since (prose files are the only input, and
 * code edits are the common change), else read back or built.
 */
function docCorpus(store: IndexStore): DocCorpus {
  return snapshotOf(store).derive(CORPUS, (earlier) => {
    const fingerprint = unparsedFilesFingerprint(store);
    return earlier?.fingerprint === fingerprint ? earlier : loadOrBuildCorpus(store, fingerprint);
  });
}

/**
 * Bump when what a section holds changes (tokens, weights, which files count) or how it is stored: the cache
 * file is keyed by the unparsed files only. 3: binary postings after a JSON line of the sections (2 was all JSON,
 * whose parse cost a one-shot search on an 11k-file tree with 1,700 prose files ~80 ms and most of its GC).
 */
const CORPUS_FORMAT = 3;

/**
 * The corpus from the cache file beside the index when it matches the
 * index's files, else built and stored there (index/store/derived-cache.ts): a
 * one-shot CLI search would otherwise tokenize every prose file again
 * (~1.2 s on mypy's docs on a loaded machine).
 */
function loadOrBuildCorpus(store: IndexStore, fingerprint: string): DocCorpus {
  const name = `docs-v${CORPUS_FORMAT}`;
  const cached = readDerivedCache(store, name, fingerprint);
  if (cached) {
    const parsed = parseCorpus(cached, fingerprint);
    if (parsed) return parsed;
  }
  const corpus = buildCorpus(store, fingerprint);
  writeDerivedCache(store, name, fingerprint, serializeCorpus(corpus));
  return corpus;
}

/** What the cache file holds besides the postings: the sections, by path index into `paths`, and every prose path. */
interface StoredSections {
  paths: string[];
  /** Per section: path index, title, start line, end line, length. */
  sections: [number, string | null, number, number, number][];
  allPaths: string[];
}

/** The sections as one JSON line, then the postings' bytes (file-postings.ts' serializePostings). */
function serializeCorpus(corpus: DocCorpus): Buffer {
  const pathIndex = new Map<string, number>();
  corpus.sections.forEach((s) => pathIndex.has(s.path) || pathIndex.set(s.path, pathIndex.size));
  const stored: StoredSections = {
    paths: [...pathIndex.keys()],
    sections: corpus.sections.map((s) => [pathIndex.get(s.path)!, s.title, s.startLine, s.endLine, s.length]),
    allPaths: corpus.paths,
  };
  // JSON escapes every newline inside a string, so the first newline ends the line.
  return Buffer.concat([Buffer.from(`${JSON.stringify(stored)}\n`, 'utf8'), serializePostings(corpus.postings)]);
}

/** The stored corpus, or null when the payload is not one (a torn or foreign file is a miss). */
function parseCorpus(payload: Buffer, fingerprint: string): DocCorpus | null {
  const end = payload.indexOf(0x0a);
  if (end < 0) return null;
  const postings = parsePostings(payload.subarray(end + 1));
  if (!postings) return null;
  try {
    const stored = JSON.parse(payload.subarray(0, end).toString('utf8')) as StoredSections;
    const sections = stored.sections.map(([path, title, startLine, endLine, length]) => ({ path: stored.paths[path]!, title, startLine, endLine, length }));
    let total = 0;
    for (const section of sections) total += section.length;
    return { sections, postings, paths: stored.allPaths, averageLength: sections.length > 0 ? total / sections.length : 0, fingerprint };
  } catch {
    return null;
  }
}

/** True for a path the documentation search reads: a prose file that is neither a test fixture nor a pin, licence or credits list. */
export function isDocumentationPath(path: string): boolean {
  return proseFormatOf(path) !== null && !NOT_DOCS.test(path) && !isTestPath(path);
}

function buildCorpus(store: IndexStore, fingerprint: string): DocCorpus {
  const sections: Section[] = [];
  const lists = new Map<string, { files: number[]; counts: number[] }>();
  const paths: string[] = [];
  let total = 0;
  for (const file of store.files()) {
    // A prose file in a parsed language does not exist today; the check keeps code out if one ever does.
    if (file.language !== 'unknown' || !isDocumentationPath(file.path)) continue;
    const text = store.fileText(file.path);
    if (text === null || text.length > MAX_FILE_CHARS) continue;
    paths.push(file.path);
    const nameTokens = codeTokens(file.path.split('/').pop()!.replace(/\.[^.]+$/, ''));
    for (const unit of sectionsOf(text, proseFormatOf(file.path)!)) {
      const counts = new Map<string, number>();
      const add = (tokens: readonly string[], weight: number) => {
        for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + weight);
      };
      add(unit.title === null ? [] : codeTokens(unit.title), HEADING_WEIGHT);
      add(nameTokens, 1);
      add(codeTokens(unit.text).slice(0, MAX_SECTION_TOKENS), 1);
      let length = 0;
      for (const count of counts.values()) length += count;
      if (length === 0) continue;
      const id = sections.length;
      sections.push({ path: file.path, title: unit.title, startLine: unit.startLine, endLine: unit.endLine, length });
      total += length;
      for (const [token, count] of counts) {
        let list = lists.get(token);
        if (!list) lists.set(token, (list = { files: [], counts: [] }));
        list.files.push(id);
        list.counts.push(count);
      }
    }
  }
  return { sections, postings: FilePostings.fromLists(lists), paths, averageLength: sections.length > 0 ? total / sections.length : 0, fingerprint };
}

/** A section's own lines: its heading up to the next heading of any level (sub-sections are sections of their own). */
function sectionsOf(text: string, format: ProseFormat): { title: string | null; startLine: number; endLine: number; text: string }[] {
  const lines = text.split('\n');
  const headings = proseOutline(text, format);
  const out: { title: string | null; startLine: number; endLine: number; text: string }[] = [];
  const push = (title: string | null, start: number, end: number) => {
    const body = lines.slice(start - 1, end).join('\n');
    if (body.trim()) out.push({ title, startLine: start, endLine: end, text: body });
  };
  const lastLine = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  if (headings.length === 0 || headings[0]!.startLine > 1) push(null, 1, headings.length === 0 ? lastLine : headings[0]!.startLine - 1);
  headings.forEach((heading, i) => {
    const next = headings[i + 1];
    push(heading.qualifiedName, heading.startLine, next ? Math.max(heading.startLine, next.startLine - 1) : lastLine);
  });
  return out;
}

/** How one search looks for documentation. */
export interface DocSearchOptions {
  /** Only sections of paths that pass (a file_pattern). */
  pathFilter?: (path: string) => boolean;
  /** Documents (files) returned, best first. */
  limit: number;
}

/**
 * The best-matching documentation files for the query's weighted terms, each
 * by its best section (ties: path, then line), at most `limit`.
 */
export function searchDocuments(store: IndexStore, terms: readonly QueryTerm[], options: DocSearchOptions): DocHit[] {
  if (options.limit <= 0 || terms.length === 0) return [];
  const corpus = docCorpus(store);
  const n = corpus.sections.length;
  if (n === 0) return [];
  const scores = new Float64Array(n);
  const touched: number[] = [];
  for (const term of terms) {
    const list = corpus.postings.get(term.token);
    if (!list) continue;
    const idf = Math.log(1 + (n - list.files.length + 0.5) / (list.files.length + 0.5));
    const weight = Math.min(term.weight, MAX_TERM_WEIGHT);
    for (let i = 0; i < list.files.length; i++) {
      const id = list.files[i]!;
      const tf = list.counts[i]!;
      const norm = K1 * (1 - B + (B * corpus.sections[id]!.length) / corpus.averageLength);
      if (scores[id] === 0) touched.push(id);
      scores[id] += weight * idf * ((tf * (K1 + 1)) / (tf + norm));
    }
  }
  const best = new Map<string, DocHit>();
  for (const id of touched) {
    const section = corpus.sections[id]!;
    if (options.pathFilter && !options.pathFilter(section.path)) continue;
    const hit: DocHit = { path: section.path, section: section.title, startLine: section.startLine, endLine: section.endLine, score: scores[id]! };
    const held = best.get(section.path);
    if (!held || compareDocHits(hit, held) < 0) best.set(section.path, hit);
  }
  return [...best.values()].sort(compareDocHits).slice(0, options.limit);
}

function compareDocHits(a: DocHit, b: DocHit): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine;
}

/** A short single-line request that asks how to use or configure something, or for its docs or examples. */
const HOW_TO = /\b(how\s+(do|does|can|could|should|would|to|is|are)\b|how-to|usage|examples?\b|tutorials?|guide|documentation|docs\b|configur\w*)/i;
/** Longest request (in words) still read as a question rather than an issue text. */
const MAX_QUESTION_WORDS = 30;

/**
 * Where documentation goes in an answer: `equal` (ranked with the code on
 * normalized scores) when the query is a one-line question of at most 30 words
 * that asks how to use something (or for docs, examples, a guide,
 * configuration), or when a file pattern is given and selects at least one
 * prose file; `below` (after every code file) otherwise — issue texts (a title
 * and a body) never ask for docs this way.
 */
export function documentPlacement(store: IndexStore, query: Pick<ParsedQuery, 'text' | 'words' | 'multiline'>, pathFilter: ((path: string) => boolean) | undefined): DocPlacement {
  if (pathFilter) return docCorpus(store).paths.some(pathFilter) ? 'equal' : 'below';
  if (query.multiline || query.words > MAX_QUESTION_WORDS) return 'below';
  return HOW_TO.test(query.text) ? 'equal' : 'below';
}

/**
 * The order of an answer's code files and documents: `below` lists every code
 * item first; `equal` merges the two lists by score relative to each list's
 * best (a code item first on a tie). Each list stays in its own order.
 */
export function mergeWithDocs<T extends { score: number }>(code: readonly T[], docs: readonly DocHit[], placement: DocPlacement): ({ code: T } | { doc: DocHit })[] {
  const out: ({ code: T } | { doc: DocHit })[] = [];
  if (placement === 'below') return [...code.map((c) => ({ code: c })), ...docs.map((d) => ({ doc: d }))];
  const topCode = code[0]?.score ?? 0;
  const topDoc = docs[0]?.score ?? 0;
  let i = 0;
  let j = 0;
  while (i < code.length || j < docs.length) {
    const codeShare = i < code.length && topCode > 0 ? code[i]!.score / topCode : -1;
    const docShare = j < docs.length && topDoc > 0 ? docs[j]!.score / topDoc : -1;
    if (i < code.length && codeShare >= docShare) out.push({ code: code[i++]! });
    else out.push({ doc: docs[j++]! });
  }
  return out;
}
