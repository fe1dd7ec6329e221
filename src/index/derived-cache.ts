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

/** The fingerprint of the index's current files (see the module contract). */
export function indexFilesFingerprint(store: IndexStore): string {
  const db = indexConnection(store);
  const hash = createHash('sha256');
  hash.update(`schema ${SCHEMA_VERSION}\n`);
  const rows = db.prepare('SELECT id, path, blob_id, language, status, indexed_at FROM files ORDER BY id').raw().iterate() as Iterable<unknown[]>;
  for (const row of rows) hash.update(`${row.join('\u0000')}\n`);
  return hash.digest('hex');
}

function cachePath(store: IndexStore, name: string): string | null {
  const file = indexConnection(store).name;
  return file === '' || file === ':memory:' ? null : `${file}.${name}.cache`;
}

/** The payload stored under `name` for `fingerprint`, or null (absent, stale, unreadable). */
export function readDerivedCache(store: IndexStore, name: string, fingerprint: string): Buffer | null {
  const path = cachePath(store, name);
  if (!path) return null;
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return null;
  }
  const newline = data.indexOf(10);
  if (newline < 0 || data.toString('utf8', 0, newline) !== fingerprint) return null;
  return data.subarray(newline + 1);
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

