/**
 * Bringing a file-level document index (file-documents.ts) up to date after a
 * few files changed, instead of building it again from every file.
 *
 * Why: the index is derived once per index state, so the first search after
 * any edit rebuilt it from all files: ~1 s of CPU on an 11.6k-file tree, more
 * than the rest of that search process together (an agent that edits, then
 * searches, paid it on every step). Patching reads only the changed files'
 * names and walks the old postings once.
 *
 * Contract: the result scores every query exactly as a fresh build over the
 * same files would. Paths, lengths, the average length and each term's
 * postings (ascending files, their counts) and the terms' order are equal to a
 * fresh build's.
 */
import { addDocument, FilePostings, type PackedFileIndex } from './file-postings.js';

/** The files an index covers: paths in index order (ascending, as stored) and each file's state string. */
export interface FileStates {
  paths: readonly string[];
  states: readonly string[];
}

/**
 * The index `previous` (built over `before`) brought to `after`: files whose
 * state string is unchanged keep their postings; changed and new files get
 * the documents `documents` returns for them (same order as the paths given);
 * files gone are dropped. Null when more than `maxChanged` files changed or
 * went (a fresh build is then as cheap), or when `previous` does not match
 * `before` (a damaged pair of cache files).
 */
export function patchFileIndex(
  previous: PackedFileIndex,
  before: FileStates,
  after: FileStates,
  documents: (paths: string[]) => string[][],
  maxChanged: number,
): PackedFileIndex | null {
  if (before.paths.length !== previous.paths.length || before.states.length !== previous.paths.length) return null;
  const oldIds = new Map<string, number>();
  previous.paths.forEach((path, i) => oldIds.set(path, i));
  // Old file id → new file id, -1 for a file gone or changed. Both lists are in path order, so
  // the kept files keep their relative order and a remapped posting list stays ascending.
  const oldToNew = new Int32Array(previous.paths.length).fill(-1);
  const changed: number[] = [];
  let kept = 0;
  for (let i = 0; i < after.paths.length; i++) {
    const old = oldIds.get(after.paths[i]!);
    if (old !== undefined && before.states[old] === after.states[i]) {
      oldToNew[old] = i;
      kept++;
    } else changed.push(i);
  }
  const removed = previous.paths.length - kept;
  if (changed.length + removed > maxChanged) return null;

  const lengths = new Float64Array(after.paths.length);
  for (let old = 0; old < oldToNew.length; old++) if (oldToNew[old]! >= 0) lengths[oldToNew[old]!] = previous.lengths[old]!;
  // The changed files' postings, per term, in ascending new file id (changed is ascending).
  const added = new Map<string, { files: number[]; counts: number[] }>();
  const changedDocuments = documents(changed.map((i) => after.paths[i]!));
  changed.forEach((file, k) => {
    const tokens = changedDocuments[k]!;
    lengths[file] = tokens.length;
    addDocument(added, file, tokens);
  });
  let total = 0;
  for (let i = 0; i < lengths.length; i++) total += lengths[i]!;

  const old = previous.postings.packed();
  let capacity = old.files.length;
  for (const list of added.values()) capacity += list.files.length;
  const terms: string[] = [];
  const starts: number[] = [];
  const files = new Uint32Array(capacity);
  const counts = new Uint32Array(capacity);
  let end = 0;
  // Terms stay ascending (file-postings.ts looks them up by binary search): the changed
  // files' terms, sorted, are merged with the old ones; a term in both merges its lists.
  const addedTerms = [...added.keys()].sort();
  let next = 0;
  const pushAdded = (term: string) => {
    const list = added.get(term)!;
    terms.push(term);
    starts.push(end);
    files.set(list.files, end);
    counts.set(list.counts, end);
    end += list.files.length;
  };
  for (let t = 0; t < old.terms.length; t++) {
    const term = old.terms[t]!;
    while (next < addedTerms.length && addedTerms[next]! < term) pushAdded(addedTerms[next++]!);
    const extra = next < addedTerms.length && addedTerms[next] === term ? added.get(addedTerms[next++]!) : undefined;
    const start = end;
    let e = 0;
    for (let p = old.starts[t]!; p < old.starts[t + 1]!; p++) {
      const file = oldToNew[old.files[p]!]!;
      if (file < 0) continue;
      // Merge the changed files' postings in, keeping the list ascending.
      while (extra && e < extra.files.length && extra.files[e]! < file) {
        files[end] = extra.files[e]!;
        counts[end++] = extra.counts[e++]!;
      }
      files[end] = file;
      counts[end++] = old.counts[p]!;
    }
    while (extra && e < extra.files.length) {
      files[end] = extra.files[e]!;
      counts[end++] = extra.counts[e++]!;
    }
    // A term no file holds any longer is dropped, as a fresh build would not have it.
    if (end > start) {
      terms.push(term);
      starts.push(start);
    }
  }
  while (next < addedTerms.length) pushAdded(addedTerms[next++]!);
  starts.push(end);
  return {
    paths: [...after.paths],
    lengths,
    averageLength: after.paths.length ? total / after.paths.length : 0,
    postings: new FilePostings(terms, Uint32Array.from(starts), files.subarray(0, end), counts.subarray(0, end)),
  };
}
