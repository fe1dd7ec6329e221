/**
 * A cache file beside the index database for data a reader derives from the
 * index at query time and that costs more to derive than to read back (the
 * file-level documents of retrieve/file-documents.ts: ~0.5 s of CPU on a
 * 2,000-file repository, which every one-shot `reponav search` process paid).
 *
 * Contract: `<index file>.<name>.cache` holds a fingerprint line and a payload.
 * The fingerprint covers every files row (id, path, blob, language, status,
 * indexed_at) and the schema version, so any write that can change what is
 * derived (a file added, removed, renamed, re-parsed) makes the file stale;
 * a stale or unreadable file is a miss, never an error. Writes go to a unique
 * temporary name and are renamed into place, so concurrent readers see a whole
 * file or none; a folder that cannot be written (a read-only shard) just means
 * no cache. In-memory databases have none.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { indexConnection, type IndexStore } from './index-store.js';
import { SCHEMA_VERSION } from './index-schema.js';
import { derivedKey, snapshotOf } from './derived-values.js';
import { fileRowLogBetween, startFileRowLog } from './file-row-changes.js';

/**
 * The fingerprint of the index's current files (see the module contract): the
 * SHA-256 of `schema N` and one line per row, its fields joined by NUL. SQLite
 * builds the text in one statement: handing 11,000 rows to JavaScript one by
 * one took 50-80 ms of a search process on an 11k-file index, this 20-30 ms.
 */
export function indexFilesFingerprint(store: IndexStore): string {
  // Derived once per index state: every derived cache of one search asks (file documents, documentation).
  return snapshotOf(store).derive(FILES_FINGERPRINT, () => fingerprintOf(store, FILES_TEXT));
}

const FILES_FINGERPRINT = derivedKey<string>('files fingerprint');

/**
 * The fingerprint of the index's files that no grammar parses (`language`
 * 'unknown': prose, data, configuration): the SHA-256 of `schema N` and one
 * line per such file (path, blob, status), by path. What is derived from
 * those files alone (the documentation corpus) stays valid while it is
 * unchanged, whatever happens to the code files.
 */
export function unparsedFilesFingerprint(store: IndexStore): string {
  // Carried: over writes of this connection's that touched no unparsed file's row (a code edit), the same.
  const snapshot = snapshotOf(store);
  return snapshot.derive(UNPARSED_FINGERPRINT, (earlier) => {
    const db = indexConnection(store);
    const log = earlier && fileRowLogBetween(db, 'unparsed-fingerprint', earlier.generation, snapshot.generation);
    const fingerprint = log && !log.unparsed ? earlier.fingerprint : fingerprintOf(store, UNPARSED_FILES_TEXT);
    startFileRowLog(db, 'unparsed-fingerprint', snapshot.generation);
    return { fingerprint, generation: snapshot.generation };
  }).fingerprint;
}

const UNPARSED_FINGERPRINT = derivedKey<{ fingerprint: string; generation: string }>('unparsed files fingerprint', { carried: true });

/** The SHA-256 of `schema N` and the text the one-value query `sql` builds from the files rows. */
function fingerprintOf(store: IndexStore, sql: string): string {
  const hash = createHash('sha256');
  hash.update(`schema ${SCHEMA_VERSION}\n`);
  hash.update((indexConnection(store).prepare(sql).pluck().get() as string | null) ?? '');
  return hash.digest('hex');
}

/** Every unparsed files row as `path NUL blob_id NUL status LF`, by path. */
const UNPARSED_FILES_TEXT = `SELECT group_concat(path || char(0) || blob_id || char(0) || status || char(10), '' ORDER BY path) FROM files WHERE language = 'unknown'`;

/** Every files row as `id NUL path NUL blob_id NUL language NUL status NUL indexed_at LF`, by id. */
const FILES_TEXT = `SELECT group_concat(id || char(0) || path || char(0) || blob_id || char(0) || language || char(0) || status || char(0) || indexed_at || char(10), '' ORDER BY id) FROM files`;

function cachePath(store: IndexStore, name: string): string | null {
  const file = indexConnection(store).name;
  return file === '' || file === ':memory:' ? null : `${file}.${name}.cache`;
}

/** The payload stored under `name` for `fingerprint`, or null (absent, stale, unreadable). */
export function readDerivedCache(store: IndexStore, name: string, fingerprint: string): Buffer | null {
  const stored = readStaleDerivedCache(store, name);
  return stored && stored.fingerprint === fingerprint ? stored.payload : null;
}

/**
 * The payload stored under `name` whatever its fingerprint, with that
 * fingerprint, or null (absent, unreadable): for a reader that can bring a
 * stale payload up to date instead of deriving it again.
 */
export function readStaleDerivedCache(store: IndexStore, name: string): { fingerprint: string; payload: Buffer } | null {
  const path = cachePath(store, name);
  if (!path) return null;
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return null;
  }
  const newline = data.indexOf(10);
  return newline < 0 ? null : { fingerprint: data.toString('utf8', 0, newline), payload: data.subarray(newline + 1) };
}

/** Stores `payload` under `name` for `fingerprint`; failures (read-only folder, full disk) are ignored. */
export function writeDerivedCache(store: IndexStore, name: string, fingerprint: string, payload: Buffer | string): void {
  const path = cachePath(store, name);
  if (!path) return;
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([Buffer.from(`${fingerprint}\n`), Buffer.isBuffer(payload) ? payload : Buffer.from(payload)]));
    renameSync(temporary, path);
  } catch {
    rmSync(temporary, { force: true });
  }
}

