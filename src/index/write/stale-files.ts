/**
 * What `status` calls stale: the files of a listing whose content is not the
 * indexed content. Size and mtime decide when they agree with the row; when
 * they do not, the file is read and its git blob id compared, so a file that
 * changed in timestamp only (a `touch`, a branch switch and back, a checkout
 * that rewrote it) is up to date, as the refresh that trusted git's stat cache
 * (or re-hashed it) already said.
 */
import { gitBlobId } from '../store/index.js';
import type { FileRow, SkippedFile } from '../store/index.js';
import { sameIdentity, type RepositorySource, type SourceFile } from '../sources/index.js';

/** Paths changed, added and deleted since indexing, each in listing order (deleted: row order). */
export interface StaleFiles {
  changed: string[];
  added: string[];
  deleted: string[];
}

/** Compares `listed` with the index's rows and skips; reads only the files whose size or mtime differ. */
export async function staleFiles(
  source: RepositorySource,
  listed: readonly SourceFile[],
  rows: readonly FileRow[],
  skipped: ReadonlyMap<string, SkippedFile>,
): Promise<StaleFiles> {
  const stale: StaleFiles = { changed: [], added: [], deleted: [] };
  const byPath = new Map(rows.map((row) => [row.path, row]));
  // Per listed path that stat cannot vouch for: the blob id it must still have to be up to date.
  const suspects: { file: SourceFile; kind: 'changed' | 'added'; blobId: string | null }[] = [];
  for (const file of listed) {
    const row = byPath.get(file.path);
    byPath.delete(file.path);
    if (row) {
      if (!sameIdentity(file, row)) suspects.push({ file, kind: 'changed', blobId: row.blobId });
      continue;
    }
    // Skipped on reading (binary, missing blob) and unchanged since: not stale, just skipped.
    const skip = skipped.get(file.path);
    if (!skip || !sameIdentity(file, skip)) suspects.push({ file, kind: 'added', blobId: skip?.blobId ?? null });
  }
  const sameContent = new Set<string>();
  const readable = suspects.filter((s) => s.blobId !== null && s.file.blobId === null);
  if (readable.length > 0) {
    const wanted = new Map(readable.map((s) => [s.file.path, s.blobId]));
    for await (const { file, bytes } of source.readMany(readable.map((s) => s.file))) {
      if (bytes && gitBlobId(bytes) === wanted.get(file.path)) sameContent.add(file.path);
    }
  }
  for (const { file, kind } of suspects) if (!sameContent.has(file.path)) stale[kind].push(file.path);
  stale.deleted.push(...byPath.keys());
  return stale;
}
