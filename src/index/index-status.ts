import type { IndexSettings } from './index-settings.js';
import type { RepositorySource, SkipReason } from './sources/index.js';
import type { IndexStore, WriterInfo, WriterLock } from './store/index.js';
import { staleFiles } from './write/index.js';

/** What is indexed and what is stale. */
export interface IndexStatus {
  mode: 'worktree' | 'commit';
  root: string;
  commit: string | null;
  indexPath: string;
  indexedAt: number | null;
  complete: boolean;
  files: number;
  symbols: number;
  chunks: number;
  partialFiles: number;
  /** Files that could not be parsed (indexed as text only); the next index run parses them again. */
  failedFiles: number;
  /** Every failed file with its reason, by path. */
  failures: { path: string; reason: string }[];
  languages: Record<string, number>;
  skipped: Partial<Record<string, number>>;
  /**
   * Examples of what the rules leave out now (up to three per reason:
   * ignored, vendored, excluded; a folder ends in `/`), each with the rule and
   * what brings it back, so that a file missing from answers is explained.
   */
  leftOut: { path: string; reason: SkipReason; rule: string | null }[];
  /** How many files and folders the rules leave out now, by reason. */
  leftOutCounts: Partial<Record<SkipReason, number>>;
  /** Files whose content changed on disk since indexing (working tree), or commit mismatch. */
  stale: { changed: string[]; added: string[]; deleted: string[] };
  /** The settings this index is built with. */
  settings: IndexSettings;
  /** Another process writing this index right now, with its progress; null when none. */
  writer: WriterInfo | null;
}

/** The skip reasons a rule gives (the others are about a file's content or kind). */
const RULE_REASONS: readonly SkipReason[] = ['vendored', 'ignored', 'excluded'];

/**
 * The status of `index.store` against its source, by listing and stat,
 * reading only the files whose size or mtime differ from their rows
 * (stale-files.ts). `indexPath` is the path reported (the index's own, not the
 * private copy a read-only folder's index is read from). Damage the probe
 * finds is thrown as a SQLITE_CORRUPT error; other failures are thrown as met.
 */
export async function readIndexStatus(
  index: { store: IndexStore; source: RepositorySource; lock: WriterLock; settings: IndexSettings },
  indexPath: string,
): Promise<IndexStatus> {
  const { store, source, lock } = index;
  // "Up to date" over pages SQLite cannot read would be a lie: probe first (cheap; see damage-probe.ts).
  const damage = store.probeDamage();
  if (damage !== null) throw Object.assign(new Error(damage), { code: 'SQLITE_CORRUPT' });
  const counts = store.counts();
  // Read with the counts, not after listing the tree (seconds on a large one), so the two describe one moment.
  const writer = lock.isHeld() ? lock.holder() : null;
  const indexed = JSON.parse(store.getMeta('indexed') ?? 'null') as { at: number; commit: string | null } | null;
  const listing = JSON.parse(store.getMeta('listing') ?? '{"skipped":{}}') as { skipped: Record<string, number> };
  const languages: Record<string, number> = {};
  const files = store.files();
  for (const f of files) languages[f.language] = (languages[f.language] ?? 0) + 1;
  const current = await source.list();
  // A file whose size or mtime differs is read: same content is up to date whatever its timestamp.
  const stale = await staleFiles(source, current.files, files, store.skippedFiles());
  return {
    mode: source.mode,
    root: source.root,
    commit: source.commit,
    indexPath,
    indexedAt: indexed?.at ?? null,
    complete: store.getMeta('complete') === '1',
    files: counts.files,
    symbols: counts.symbols,
    chunks: counts.chunks,
    partialFiles: counts.partial,
    failedFiles: counts.failed,
    failures: store.failedFiles(),
    languages,
    skipped: listing.skipped,
    leftOut: RULE_REASONS.flatMap((reason) => (current.skippedExamples[reason] ?? []).map((path) => ({ path, reason, rule: source.skipRule?.(path) ?? null }))),
    leftOutCounts: Object.fromEntries(RULE_REASONS.filter((reason) => current.skipped[reason]).map((reason) => [reason, current.skipped[reason]])),
    stale,
    settings: index.settings,
    writer,
  };
}
