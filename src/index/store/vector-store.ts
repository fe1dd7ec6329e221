/**
 * Chunk embeddings inside the repository's SQLite index, next to the chunks
 * they describe, so one file holds the whole index and a deleted index takes
 * its vectors with it.
 *
 * Layout (created lazily on first use, outside the main schema, so lexical-only
 * users never see it and the schema version does not change):
 * - `embedding_meta(key, value)`: `embedder` (the Embedder id) and `dimension`.
 * - `embeddings(content_hash PRIMARY KEY, vector BLOB)`: a cache keyed by the
 *   chunk's content hash (sha1 of its lines), so re-indexing embeds only chunks
 *   whose text changed and identical chunks share one vector. Vectors are
 *   little-endian float32 blobs, the format sqlite-vec reads. Trade-off: the
 *   embedded text also carries the path and symbol name (chunk-text.ts), so a
 *   chunk moved or renamed without changing its lines keeps the vector made
 *   under its old path until its content changes (`--reembed` refreshes all).
 *
 * Search is exact brute-force cosine computed inside SQLite by sqlite-vec's
 * `vec_distance_cosine` over the cache JOINed to the current chunks — not a
 * `vec0` virtual table. Measured on this machine (2 vCPU, k=50):
 *
 *   chunks × dim     vec0 KNN   SQL brute force   JS brute force
 *   20k × 384          32 ms         68 ms            170 ms
 *   100k × 384         91 ms        302 ms            750 ms
 *   100k × 768        274 ms        492 ms           1100 ms
 *   50k × 1536        227 ms        436 ms           1140 ms
 *
 * vec0 is 2–3× faster, but chunk ids change whenever a file is re-parsed, so
 * a vec0 table must be kept in sync with `chunks` after every refresh (else
 * KNN returns stale or missing rows), it stores every vector a second time,
 * it cannot apply the caller's path filter inside the KNN, and sqlite-vec
 * 0.1.x does not reclaim space of deleted vec0 rows (asg017/sqlite-vec#54,
 * #184, #220), which incremental re-indexing would hit constantly. The JOIN
 * is always exactly the current chunks, filters in SQL, and at typical
 * repository sizes (≤ 20k chunks) costs less than the query's embedding
 * request. If sqlite-vec cannot load on a platform, the same search runs in
 * JavaScript (slower, same results).
 *
 * Model or dimension changes are refused, not repaired: a mismatch throws
 * `ReponavError('EMBEDDER_ERROR')` telling the user to re-run with
 * `--reembed`. An automatic rebuild could silently spend a paid API quota on
 * a whole repository because of a flag typo; an error costs one re-run.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type * as SqliteVec from 'sqlite-vec';
import { isMissingPackage, ReponavError } from '../../errors.js';
import { indexConnection, type ChunkRow, type IndexStore } from './index-store.js';
import { silentLogger, type Logger } from '../../logger.js';
import type { ChunkKind } from './index-schema.js';

const DDL = `
CREATE TABLE IF NOT EXISTS embedding_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS embeddings (content_hash TEXT PRIMARY KEY, vector BLOB NOT NULL);
`;

/**
 * Which chunks dense retrieval covers: the same as BM25 (files in a parsed
 * language; see IndexStore.putFile), so both retrievers rank the same pool and
 * docs/data files are never paid for.
 */
const SEARCHABLE = "f.language != 'unknown'";

/** A current chunk as dense retrieval sees it: a chunk row whose id is named `chunkId`, as in a ChunkHit. */
export interface StoredChunk extends Omit<ChunkRow, 'id'> {
  chunkId: number;
}

/** One dense match: a current chunk and its cosine similarity to the query, in [-1, 1]. */
export interface VectorMatch extends StoredChunk {
  similarity: number;
}

/** Options of {@link VectorStore.open}. */
export interface VectorStoreOptions {
  logger?: Logger;
  /** Set false to skip sqlite-vec and search in JavaScript (tests of the fallback). Default true. */
  useSqliteVec?: boolean;
}

/** Connections that already have sqlite-vec loaded (loading twice is harmless but wasteful). */
const loaded = new WeakSet<Database.Database>();
/** Connections where loading failed, so the warning is logged once. */
const failed = new WeakSet<Database.Database>();

/**
 * The embedding tables of one IndexStore. Cheap to open repeatedly (DDL is
 * `IF NOT EXISTS`); all methods are synchronous SQLite calls.
 */
export class VectorStore {
  private constructor(
    private readonly db: Database.Database,
    /** True when `vec_distance_cosine` is available in SQL; false means the JavaScript fallback. */
    readonly usesSqliteVec: boolean,
  ) {}

  /** Creates the tables if needed and loads sqlite-vec into the store's connection (falling back to JavaScript search with a warning). */
  static open(store: IndexStore, options: VectorStoreOptions = {}): VectorStore {
    const db = indexConnection(store);
    db.exec(DDL);
    let usable = false;
    if (options.useSqliteVec !== false) {
      if (loaded.has(db)) usable = true;
      else if (!failed.has(db)) {
        try {
          // Required here, not imported: every CLI process loads this module, few use vectors (~5 ms a process).
          (createRequire(import.meta.url)('sqlite-vec') as typeof SqliteVec).load(db);
          loaded.add(db);
          usable = true;
        } catch (error) {
          failed.add(db);
          // An optional peer: absent is a normal install, and the search still works.
          const why = isMissingPackage(error, 'sqlite-vec')
            ? 'the optional package sqlite-vec is not installed; run `npm install sqlite-vec@0.1` next to reponav for faster dense search'
            : `sqlite-vec could not load (${(error as Error).message})`;
          (options.logger ?? silentLogger).warn(`${why}; dense search falls back to JavaScript, which is slower on large repositories.`);
        }
      }
    }
    return new VectorStore(db, usable);
  }

  /** The embedder id the stored vectors came from, or null before the first embedding run. */
  embedderId(): string | null {
    return this.meta('embedder');
  }

  /** The stored vectors' length, or null when none were stored yet. */
  dimension(): number | null {
    const value = this.meta('dimension');
    return value === null ? null : Number(value);
  }

  /** How many vectors the cache holds (including ones no current chunk uses). */
  vectorCount(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM embeddings').get() as { n: number }).n;
  }

  /**
   * Throws `ReponavError('EMBEDDER_ERROR')` unless vectors from `embedderId`
   * may be stored or compared here: the store is empty, or it records this
   * same id. The message names both models and the `--reembed` remedy.
   */
  assertCompatible(embedderId: string): void {
    const stored = this.embedderId();
    if (stored === embedderId) return;
    if (stored === null && this.vectorCount() === 0) return;
    const what = stored === null ? 'embeddings of unknown origin' : `embeddings from ${stored}${this.describeDimension()}`;
    throw new ReponavError(
      'EMBEDDER_ERROR',
      `This index holds ${what}, but the configured embedder is ${embedderId}; vectors of different models cannot be compared. ` +
        `Re-run indexing with --reembed to discard them and embed again with ${embedderId}` +
        (stored ? `, or configure ${stored} again.` : '.'),
      { reason: 'embedder-mismatch', stored, configured: embedderId },
    );
  }

  /**
   * Throws `ReponavError('EMBEDDER_ERROR')` when `dimension` differs from the
   * stored vectors' length. Under one embedder id that means the server's
   * model or its `dimensions` setting changed; the message gives the
   * `--reembed` remedy. Writes nothing.
   */
  assertDimension(embedderId: string, dimension: number): void {
    const stored = this.dimension();
    if (stored === null || stored === dimension) return;
    throw new ReponavError(
      'EMBEDDER_ERROR',
      `${embedderId} now returns ${dimension}-dimensional vectors, but this index holds ${stored}-dimensional vectors from the same model id ` +
        `(the server's model or its dimensions setting changed). Re-run indexing with --reembed to embed everything again.`,
      { reason: 'dimension-mismatch', stored, received: dimension, embedder: embedderId },
    );
  }

  /**
   * Records `embedderId` (and `dimension`, when known) as the owner of the
   * stored vectors, after {@link assertCompatible} and {@link assertDimension}
   * pass. The check and the write are one immediate transaction, so a claim
   * another process made meanwhile is refused, never overwritten.
   */
  claim(embedderId: string, dimension: number | null): void {
    const check = () => {
      this.assertCompatible(embedderId);
      if (dimension !== null) this.assertDimension(embedderId, dimension);
      return this.embedderId() === null || (dimension !== null && this.dimension() === null);
    };
    if (!check()) return;
    // Check again under the write lock: another process may have claimed the store meanwhile.
    this.immediate(() => {
      if (!check()) return;
      if (this.embedderId() === null) this.setMeta('embedder', embedderId);
      if (dimension !== null && this.dimension() === null) this.setMeta('dimension', String(dimension));
    });
  }

  /**
   * Runs `work` in one write transaction begun IMMEDIATE, as IndexStore's are:
   * it waits (busy_timeout) for another process's write instead of failing
   * with "database is locked" when a read in it went stale.
   */
  private immediate(work: () => void): void {
    this.db.transaction(work).immediate();
  }

  /** Deletes every vector and the recorded embedder (the `--reembed` path). */
  reset(): void {
    this.immediate(() => {
      this.db.prepare('DELETE FROM embeddings').run();
      this.db.prepare('DELETE FROM embedding_meta').run();
    });
  }

  /** Distinct content hashes of searchable current chunks: `total` all of them, `missing` those without a vector. */
  coverage(): { total: number; missing: number } {
    const row = this.db
      .prepare(
        `SELECT COUNT(DISTINCT c.content_hash) AS total,
                COUNT(DISTINCT CASE WHEN e.content_hash IS NULL THEN c.content_hash END) AS missing
         FROM chunks c JOIN files f ON f.id = c.file_id LEFT JOIN embeddings e ON e.content_hash = c.content_hash
         WHERE ${SEARCHABLE}`,
      )
      .get() as { total: number; missing: number };
    return row;
  }

  /**
   * One searchable current chunk per content hash that has no vector yet,
   * ordered by path then line so consecutive batches read the same files.
   */
  chunksWithoutVectors(): StoredChunk[] {
    return (
      this.db
        .prepare(
          `SELECT c.id, f.path, c.kind, c.symbol, c.start_line, c.end_line, c.content_hash FROM chunks c JOIN files f ON f.id = c.file_id
           WHERE c.id IN (
             SELECT MIN(c2.id) FROM chunks c2 JOIN files f ON f.id = c2.file_id LEFT JOIN embeddings e ON e.content_hash = c2.content_hash
             WHERE ${SEARCHABLE} AND e.content_hash IS NULL GROUP BY c2.content_hash)
           ORDER BY f.path, c.start_line, c.id`,
        )
        .all() as RawChunk[]
    ).map(toStoredChunk);
  }

  /** Every searchable current chunk, by path then start line. */
  currentChunks(): StoredChunk[] {
    return (
      this.db
        .prepare(
          `SELECT c.id, f.path, c.kind, c.symbol, c.start_line, c.end_line, c.content_hash FROM chunks c JOIN files f ON f.id = c.file_id
           WHERE ${SEARCHABLE} ORDER BY f.path, c.start_line, c.id`,
        )
        .all() as RawChunk[]
    ).map(toStoredChunk);
  }

  /** Stores vectors by content hash in one transaction (replacing existing ones). */
  put(entries: { contentHash: string; vector: Float32Array }[]): void {
    const insert = this.db.prepare('INSERT OR REPLACE INTO embeddings(content_hash, vector) VALUES (?, ?)');
    this.immediate(() => {
      for (const e of entries) insert.run(e.contentHash, toBlob(e.vector));
    });
  }

  /**
   * The `limit` searchable current chunks most similar to `query` by cosine,
   * best first (ties by chunk id). `fileIds` restricts the search to those
   * files. Chunks with a zero vector (no defined cosine) are skipped.
   */
  search(query: Float32Array, limit: number, fileIds?: number[]): VectorMatch[] {
    const n = Math.max(1, Math.floor(limit));
    if (fileIds && fileIds.length === 0) return [];
    const filter = fileIds ? 'AND c.file_id IN (SELECT value FROM json_each(?))' : '';
    const filterParams = fileIds ? [JSON.stringify(fileIds)] : [];
    const columns = 'c.id, f.path, c.kind, c.symbol, c.start_line, c.end_line, c.content_hash';
    const from = `FROM chunks c JOIN files f ON f.id = c.file_id JOIN embeddings e ON e.content_hash = c.content_hash WHERE ${SEARCHABLE} ${filter}`;
    if (this.usesSqliteVec) {
      const rows = this.db
        .prepare(
          `SELECT * FROM (SELECT ${columns}, vec_distance_cosine(e.vector, ?) AS distance ${from})
           WHERE distance IS NOT NULL ORDER BY distance, id LIMIT ?`,
        )
        .all(toBlob(query), ...filterParams, n) as (RawChunk & { distance: number })[];
      return rows.map((r) => ({ ...toStoredChunk(r), similarity: 1 - r.distance }));
    }
    const queryNorm = norm(query);
    if (queryNorm === 0) return [];
    const scored: VectorMatch[] = [];
    for (const row of this.db.prepare(`SELECT ${columns}, e.vector ${from}`).iterate(...filterParams) as Iterable<RawChunk & { vector: Buffer }>) {
      const vector = fromBlob(row.vector);
      if (vector.length !== query.length) continue;
      const vectorNorm = norm(vector);
      if (vectorNorm === 0) continue;
      let dot = 0;
      for (let i = 0; i < vector.length; i++) dot += vector[i]! * query[i]!;
      scored.push({ ...toStoredChunk(row), similarity: dot / (queryNorm * vectorNorm) });
    }
    scored.sort((a, b) => b.similarity - a.similarity || a.chunkId - b.chunkId);
    return scored.slice(0, n);
  }

  /** Deletes cached vectors no current chunk uses; returns how many. Not automatic: the cache also serves other commits of the repository. */
  prune(): number {
    return this.db.prepare('DELETE FROM embeddings WHERE content_hash NOT IN (SELECT content_hash FROM chunks)').run().changes;
  }

  private describeDimension(): string {
    const d = this.dimension();
    return d === null ? '' : ` (${d}-dimensional)`;
  }

  private meta(key: string): string | null {
    return (this.db.prepare('SELECT value FROM embedding_meta WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.db
      .prepare('INSERT INTO embedding_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
      .run(key, value);
  }
}

interface RawChunk {
  id: number;
  path: string;
  kind: ChunkKind;
  symbol: string | null;
  start_line: number;
  end_line: number;
  content_hash: string;
}

function toStoredChunk(r: RawChunk): StoredChunk {
  return { chunkId: r.id, path: r.path, kind: r.kind, symbol: r.symbol, startLine: r.start_line, endLine: r.end_line, contentHash: r.content_hash };
}

/** Float32 little-endian bytes (the platform order on every Node target), sqlite-vec's vector format. */
function toBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function fromBlob(blob: Buffer): Float32Array {
  // Copy: a Buffer's offset need not be 4-byte aligned.
  return new Float32Array(new Uint8Array(blob).buffer);
}

function norm(vector: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  return Math.sqrt(sum);
}
