/**
 * A source read from an index itself: the files and texts a built index holds,
 * for serving an index shard copied from elsewhere (the team server) where the
 * repository it was built from is not at hand. Listing it finds exactly what
 * is indexed, so nothing is ever stale.
 */
import type { IndexStore } from '../store/index.js';
import type { RepositorySource, SourceFile, SourceListing } from '../sources/index.js';

/** The indexed files of `store`, as a read-only commit source named `root` at `commit`. */
export class StoredSource implements RepositorySource {
  readonly mode = 'commit' as const;

  constructor(
    private readonly store: () => IndexStore,
    readonly root: string,
    readonly commit: string,
  ) {}

  async list(): Promise<SourceListing> {
    const files: SourceFile[] = this.store()
      .files()
      .map((f) => ({ path: f.path, size: f.size, mtimeMs: f.mtimeMs, blobId: f.blobId }));
    return { files, skipped: {}, skippedExamples: {} };
  }

  /** Every indexed and every skipped path: the whole tree the shard knows, read from the store alone (never from disk or git). */
  detachedFiles(): readonly { path: string; size: number | null }[] {
    const store = this.store();
    const files: { path: string; size: number | null }[] = store.files().map((f) => ({ path: f.path, size: f.size }));
    const known = new Set(files.map((f) => f.path));
    for (const path of store.skippedFiles().keys()) if (!known.has(path)) files.push({ path, size: null });
    return files;
  }

  async *readMany(paths: SourceFile[]): AsyncIterable<{ file: SourceFile; bytes: Buffer | null }> {
    for (const file of paths) {
      const text = file.blobId ? this.store().blobText(file.blobId) : null;
      yield { file, bytes: text === null ? null : Buffer.from(text, 'utf8') };
    }
  }
}
