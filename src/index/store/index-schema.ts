/**
 * The SQLite schema of an index. Bump SCHEMA_VERSION on any change to it, and
 * on any change to what parsing or chunking stores (queries, symbol model,
 * tokens): an index with another version is rebuilt, never trusted.
 * 8: type aliases and Go named types are symbols of kind `type`.
 * 9: `graph_facts`, each parsed file's defined and called names, written with its symbols.
 * 10: `blobs.parsed` holds the parse's JSON deflated (raw deflate, see parsed-blob.ts), and
 *     `blobs.failure` the reason of a failed parse (NULL otherwise), which SQL read from the JSON before.
 * 11: `symbols.calls`, each call's receiver as written beside its name, so every call edge is resolved by receiver.
 */
export const SCHEMA_VERSION = 11;

/** What a chunk covers: one function/method, one class header, or a file's top-level remainder. */
export type ChunkKind = 'function' | 'class' | 'file';

/** Every chunk kind, in a fixed order. */
export const CHUNK_KINDS: readonly ChunkKind[] = ['function', 'class', 'file'];

/**
 * The searchable fields of a chunk, in the FTS table's column order. FTS5's
 * bm25() takes its column weights positionally, so every weight list is built
 * from this one constant (see chunk-queries.ts), never written out by hand.
 */
export const FTS_FIELDS = ['path', 'name', 'signature', 'doc', 'body'] as const;

/** One searchable chunk field. */
export type FtsField = (typeof FTS_FIELDS)[number];

/** A weight per searchable field (BM25 column weights). */
export type FieldWeights = Record<FtsField, number>;

/** DDL run on a fresh database. */
export const SCHEMA_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- Content-addressed by git blob id, so two commits sharing a file share its parse. The parse
-- (the JSON of its ParsedFile, raw-deflated: read back only when another commit or path reuses
-- the blob) is a fifth of its JSON size; \`failure\` is the reason of a failed parse, else NULL.
CREATE TABLE blobs (
  blob_id TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  parsed BLOB NOT NULL,
  failure TEXT
);

CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  blob_id TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL,
  language TEXT NOT NULL,
  status TEXT NOT NULL,
  error_count INTEGER NOT NULL,
  decoded_with_replacement INTEGER NOT NULL,
  line_count INTEGER NOT NULL,
  indexed_at INTEGER NOT NULL
);

CREATE TABLE symbols (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  kind TEXT NOT NULL,
  parent TEXT,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  signature TEXT NOT NULL,
  doc TEXT,
  callees TEXT NOT NULL,
  calls TEXT NOT NULL,
  bases TEXT NOT NULL
);
CREATE INDEX symbols_file ON symbols(file_id);
CREATE INDEX symbols_name ON symbols(name COLLATE NOCASE);
CREATE INDEX symbols_qualified ON symbols(qualified_name COLLATE NOCASE);

-- What the repository map's file graph reads of a parsed file's symbols (graph-inputs.ts), written with
-- them: one row per file instead of one per symbol with its callees' JSON, so the first map of a process
-- reads a few thousand short rows rather than every symbol. JSON arrays: the simple names defined at
-- depth 0 or 1 (top level, members), in the parse's order; the distinct names its symbols call, sorted.
CREATE TABLE graph_facts (
  file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
  defines TEXT NOT NULL,
  calls TEXT NOT NULL
);

CREATE TABLE imports (
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  names TEXT NOT NULL,
  line INTEGER NOT NULL
);
CREATE INDEX imports_file ON imports(file_id);

-- Resolved cross-file import edges, recomputed after every change to the file set.
CREATE TABLE import_edges (
  from_path TEXT NOT NULL,
  to_path TEXT NOT NULL,
  PRIMARY KEY (from_path, to_path)
) WITHOUT ROWID;
CREATE INDEX import_edges_to ON import_edges(to_path);

CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  symbol TEXT,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  content_hash TEXT NOT NULL
);
CREATE INDEX chunks_file ON chunks(file_id);

-- Pre-tokenized fields (see code-tokens.ts). Contentless, and never with
-- contentless_delete (its tombstones make BM25 statistics depend on index
-- history): rows are removed with FTS5's 'delete' command and the exact values
-- re-derived from the chunk rows (see full-text-index.ts). The fields hold only
-- lower-case ASCII identifier tokens, so FTS5's plain 'ascii' tokenizer splits
-- them exactly as unicode61 would, at less cost.
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  ${FTS_FIELDS.join(', ')},
  content='', tokenize='ascii tokenchars ''_'''
);

-- Files listed but not indexed because of what reading them found (binary,
-- missing blob, unreadable), with the identity they had, so status can tell
-- "skipped and unchanged" from "new" and a refresh need not re-read them.
CREATE TABLE skipped (
  path TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  blob_id TEXT,
  size INTEGER,
  mtime_ms REAL
);
`;
