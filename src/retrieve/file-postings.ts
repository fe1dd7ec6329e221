/**
 * The postings of a file-level document index (file-documents.ts) in one packed
 * form, used both in memory and in the derived cache file beside the index.
 *
 * Why packed and binary: a CLI search reads the identity index back from its
 * cache file in every process. As JSON (one array pair per term) that cost about
 * 150 ms of parsing plus most of a process's garbage collection on an 11.6k-file
 * tree; typed-array views over the file's bytes cost a copy and one split of the
 * term list.
 */

/** One term's postings: the files holding it (ascending) and its count in each. */
export interface TermPostings {
  readonly files: Uint32Array;
  readonly counts: Uint32Array;
}

/**
 * Term → postings over packed arrays. The terms are in ascending order (of
 * `<`, UTF-16 code units), so a lookup is a binary search: a process that
 * reads the index back for one search asks for a few dozen terms, and a map
 * of every term cost it 23–45 ms on an 11.6k-file tree (67k terms).
 *
 * An edit in a warm process replaces a few terms' lists: those go in an
 * overlay over the packed arrays ({@link FilePostings.withLists}) instead of a
 * new copy of every posting (the content documents of an 11k-file tree hold
 * millions, and copying them was a sixth of an edit's next search). Every
 * reader sees the overlaid lists; `packed()` folds them in.
 */
export class FilePostings {
  /** Term → its list when the overlay replaced it; null: no document holds the term any more. */
  private readonly overlay: ReadonlyMap<string, TermPostings | null>;
  /** Postings held by the overlay's lists (what decides when to fold them into the packed arrays). */
  private readonly overlaid: number;
  private readonly termCount: number;
  private folded: PackedPostings | undefined;

  /**
   * @param terms the terms, ascending (see the class comment), in the order of `starts`
   * @param starts `starts[i]..starts[i+1]` is term i's slice of `files` and `counts` (length terms + 1)
   * @param overlay lists that replace the packed ones (null: the term is gone); terms absent from the arrays are added
   */
  constructor(
    private readonly terms: readonly string[],
    private readonly starts: Uint32Array,
    private readonly files: Uint32Array,
    private readonly counts: Uint32Array,
    overlay: ReadonlyMap<string, TermPostings | null> = new Map(),
  ) {
    this.overlay = overlay;
    let count = terms.length;
    let overlaid = 0;
    for (const [term, list] of overlay) {
      const packed = this.indexOf(term) >= 0;
      if (list) overlaid += list.files.length;
      if (packed && !list) count--;
      else if (!packed && list) count++;
    }
    this.termCount = count;
    this.overlaid = overlaid;
  }

  /** Packs per-term lists (as built by indexing, in any order). */
  static fromLists(lists: Map<string, { files: ArrayLike<number>; counts: ArrayLike<number> }>): FilePostings {
    const terms = [...lists.keys()].sort();
    const starts = new Uint32Array(terms.length + 1);
    let total = 0;
    terms.forEach((term, i) => {
      starts[i] = total;
      total += lists.get(term)!.files.length;
    });
    starts[terms.length] = total;
    const files = new Uint32Array(total);
    const counts = new Uint32Array(total);
    terms.forEach((term, i) => {
      const list = lists.get(term)!;
      files.set(list.files, starts[i]!);
      counts.set(list.counts, starts[i]!);
    });
    return new FilePostings(terms, starts, files, counts);
  }

  /** Number of distinct terms. */
  get size(): number {
    return this.termCount;
  }

  /** The postings of `token`, or undefined when no document holds it. Views, not copies: do not write to them. */
  get(token: string): TermPostings | undefined {
    const replaced = this.overlay.get(token);
    if (replaced !== undefined) return replaced ?? undefined;
    const i = this.indexOf(token);
    return i >= 0 ? this.at(i) : undefined;
  }

  /**
   * These postings with `lists` replacing the given terms' lists (null or an
   * empty list: the term is gone), without copying the other terms'. When the
   * replaced lists grow past half the packed postings they are folded in (one
   * copy, as a fresh build would pack them).
   */
  withLists(lists: ReadonlyMap<string, TermPostings | null>): FilePostings {
    const overlay = new Map(this.overlay);
    for (const [term, list] of lists) overlay.set(term, list && list.files.length > 0 ? list : null);
    const next = new FilePostings(this.terms, this.starts, this.files, this.counts, overlay);
    if (next.overlaid <= this.files.length / 2) return next;
    const { terms, starts, files, counts } = next.packed();
    return new FilePostings(terms, starts, files, counts);
  }

  /** The terms whose list holds a file of `files` (ascending ids; `marked[id]` is 1 for each, as touchedTerms takes them), in no promised order. */
  termsHolding(files: readonly number[], marked: Uint8Array): string[] {
    const out: string[] = [];
    for (const t of touchedTerms({ starts: this.starts, files: this.files }, files, marked)) if (!this.overlay.has(this.terms[t]!)) out.push(this.terms[t]!);
    for (const [term, list] of this.overlay) if (list && list.files.some((file) => file < marked.length && marked[file] === 1)) out.push(term);
    return out;
  }

  /** Index of `token` among the packed terms, or −1. */
  private indexOf(token: string): number {
    let low = 0;
    let high = this.terms.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const term = this.terms[middle]!;
      if (term < token) low = middle + 1;
      else if (term > token) high = middle - 1;
      else return middle;
    }
    return -1;
  }

  private at(i: number): TermPostings {
    const from = this.starts[i]!;
    const to = this.starts[i + 1]!;
    return { files: this.files.subarray(from, to), counts: this.counts.subarray(from, to) };
  }

  /** Every term with its postings, in ascending order of the terms. */
  *entries(): IterableIterator<[string, TermPostings]> {
    const added = [...this.overlay.keys()].filter((term) => this.indexOf(term) < 0).sort();
    let next = 0;
    for (let i = 0; i < this.terms.length; i++) {
      const term = this.terms[i]!;
      for (; next < added.length && added[next]! < term; next++) {
        const list = this.overlay.get(added[next]!);
        if (list) yield [added[next]!, list];
      }
      const replaced = this.overlay.get(term);
      if (replaced === undefined) yield [term, this.at(i)];
      else if (replaced) yield [term, replaced];
    }
    for (; next < added.length; next++) {
      const list = this.overlay.get(added[next]!);
      if (list) yield [added[next]!, list];
    }
  }

  /**
   * The packed arrays, for serialization and for a patch that renumbers
   * files; the overlay is folded in (once, then remembered).
   */
  packed(): PackedPostings {
    if (this.overlay.size === 0) return { terms: this.terms, starts: this.starts, files: this.files, counts: this.counts };
    if (!this.folded) {
      const terms: string[] = [];
      const starts = new Uint32Array(this.termCount + 1);
      const files = new Uint32Array(this.files.length + this.overlaid);
      const counts = new Uint32Array(this.files.length + this.overlaid);
      let end = 0;
      for (const [term, list] of this.entries()) {
        starts[terms.length] = end;
        terms.push(term);
        files.set(list.files, end);
        counts.set(list.counts, end);
        end += list.files.length;
      }
      starts[terms.length] = end;
      this.folded = { terms, starts, files: files.subarray(0, end), counts: counts.subarray(0, end) };
    }
    return this.folded;
  }
}

/** Above this many changed files, one pass over every posting finds the touched terms faster than a search per file. */
const SEARCHED_CHANGES = 8;

/**
 * The terms (ascending) whose old list holds a file of `changed` (ascending
 * ids; `isChanged` marks them). Few changed files: each term's list, sorted by
 * file, is skipped when its range misses them and binary-searched otherwise,
 * so an edit costs about one step per term instead of one per posting (the
 * content documents of an 11k-file tree hold millions). Many: one pass.
 */
export function touchedTerms(old: Pick<PackedPostings, 'starts' | 'files'>, changed: readonly number[], isChanged: Uint8Array): number[] {
  const touched: number[] = [];
  const termCount = old.starts.length - 1;
  if (changed.length === 0) return touched;
  if (changed.length > SEARCHED_CHANGES) {
    for (let t = 0, p = 0; t < termCount; t++) {
      const end = old.starts[t + 1]!;
      for (; p < end; p++) {
        const file = old.files[p]!;
        if (file < isChanged.length && isChanged[file]) {
          touched.push(t);
          p = end;
          break;
        }
      }
    }
    return touched;
  }
  const first = changed[0]!;
  const last = changed[changed.length - 1]!;
  for (let t = 0; t < termCount; t++) {
    const from = old.starts[t]!;
    const to = old.starts[t + 1]!;
    if (from === to || old.files[to - 1]! < first || old.files[from]! > last) continue;
    for (const file of changed) {
      let lo = from;
      let hi = to;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (old.files[mid]! < file) lo = mid + 1;
        else hi = mid;
      }
      if (lo < to && old.files[lo] === file) {
        touched.push(t);
        break;
      }
    }
  }
  return touched;
}

/** The packed form of {@link FilePostings}: terms ascending, term i's postings at `starts[i]..starts[i+1]`. */
export interface PackedPostings {
  readonly terms: readonly string[];
  readonly starts: Uint32Array;
  readonly files: Uint32Array;
  readonly counts: Uint32Array;
}

/**
 * Appends document `file`'s postings to per-term lists (one entry per distinct
 * token, with its count); lists stay ascending when documents are added in
 * ascending order.
 */
export function addDocument(lists: Map<string, { files: number[]; counts: number[] }>, file: number, tokens: readonly string[]): void {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  for (const [token, count] of counts) {
    const list = lists.get(token);
    if (list) {
      list.files.push(file);
      list.counts.push(count);
    } else lists.set(token, { files: [file], counts: [count] });
  }
}

/** What a serialized index holds besides its postings. */
export interface PackedFileIndex {
  paths: string[];
  lengths: Float64Array;
  averageLength: number;
  postings: FilePostings;
}

const MAGIC = 0x44464e52; // "RNFD" little-endian
// 3: the postings are serializePostings' block (2 had its own copy of that layout; 1 kept terms in the order first met).
const VERSION = 3;
const HEADER_WORDS = 4;

/**
 * The index as bytes: a header (magic, version, path count, path text
 * length), the average length as a Float64, the document lengths as Uint32,
 * the postings as {@link serializePostings} writes them (4-byte aligned here),
 * then the paths joined by NUL (a path cannot hold one).
 */
export function serializeFileIndex(index: PackedFileIndex): Buffer {
  const paths = Buffer.from(index.paths.join('\0'), 'utf8');
  const header = Uint32Array.from([MAGIC, VERSION, index.paths.length, paths.length]);
  const average = new Float64Array([index.averageLength]);
  const lengths = Uint32Array.from(index.lengths);
  return Buffer.concat([Buffer.from(header.buffer), Buffer.from(average.buffer), Buffer.from(lengths.buffer), serializePostings(index.postings), paths]);
}

/** A serialized index, or null when the bytes are not one (a damaged or foreign file is a cache miss). */
export function parseFileIndex(payload: Uint8Array): PackedFileIndex | null {
  if (payload.byteLength < HEADER_WORDS * 4 + 8) return null;
  const bytes = aligned(payload);
  const [magic, version, pathCount, pathBytes] = new Uint32Array(bytes.buffer, 0, HEADER_WORDS) as unknown as number[];
  if (magic !== MAGIC || version !== VERSION) return null;
  let offset = HEADER_WORDS * 4;
  const averageLength = new Float64Array(bytes.buffer, offset, 1)[0]!;
  offset += 8;
  if (bytes.byteLength < offset + 4 * pathCount!) return null;
  const lengths = Float64Array.from(new Uint32Array(bytes.buffer, offset, pathCount!));
  offset += 4 * pathCount!;
  const read = readPostings(bytes, offset);
  if (!read || read.end + pathBytes! !== bytes.byteLength) return null;
  const pathText = new TextDecoder().decode(bytes.subarray(read.end));
  const paths = pathCount === 0 ? [] : pathText.split('\0');
  if (paths.length !== pathCount) return null;
  return { paths, lengths, averageLength, postings: read.postings };
}

const POSTINGS_MAGIC = 0x50534f50; // "POSP" little-endian
const POSTINGS_HEADER_BYTES = 16;

/**
 * Postings alone as bytes (for a corpus whose documents are described apart,
 * as the documentation sections are, and inside a serialized file index):
 * magic, term count, posting count, term text length, then starts, files and
 * counts as Uint32 and the terms joined by newlines (a token cannot hold one).
 */
export function serializePostings(postings: FilePostings): Buffer {
  const { terms, starts, files, counts } = postings.packed();
  const termText = Buffer.from(terms.join('\n'), 'utf8');
  const header = Uint32Array.from([POSTINGS_MAGIC, terms.length, files.length, termText.length]);
  const view = (array: Uint32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  return Buffer.concat([view(header), view(starts), view(files), view(counts), termText]);
}

/** Postings written by {@link serializePostings}, or null when the bytes are not that (a damaged or foreign payload is a miss). */
export function parsePostings(payload: Uint8Array): FilePostings | null {
  const read = readPostings(aligned(payload), 0);
  return read && read.end === payload.byteLength ? read.postings : null;
}

/** A copy of `payload` at offset 0 of its own buffer: typed-array views need 4-byte alignment, which a cache's payload lacks. */
function aligned(payload: Uint8Array): Uint8Array {
  return Uint8Array.from(payload);
}

/** The postings block that starts at `offset` (4-byte aligned) of `bytes`, and where it ends; null when it is not one. */
function readPostings(bytes: Uint8Array, offset: number): { postings: FilePostings; end: number } | null {
  if (bytes.byteLength < offset + POSTINGS_HEADER_BYTES) return null;
  const [magic, termCount, postingCount, termBytes] = new Uint32Array(bytes.buffer, offset, 4) as unknown as number[];
  const textAt = offset + POSTINGS_HEADER_BYTES + 4 * (termCount! + 1 + 2 * postingCount!);
  if (magic !== POSTINGS_MAGIC || bytes.byteLength < textAt + termBytes!) return null;
  const starts = new Uint32Array(bytes.buffer, offset + POSTINGS_HEADER_BYTES, termCount! + 1);
  const files = new Uint32Array(bytes.buffer, offset + POSTINGS_HEADER_BYTES + 4 * (termCount! + 1), postingCount!);
  const counts = new Uint32Array(bytes.buffer, offset + POSTINGS_HEADER_BYTES + 4 * (termCount! + 1 + postingCount!), postingCount!);
  const text = new TextDecoder().decode(bytes.subarray(textAt, textAt + termBytes!));
  const terms = termCount === 0 ? [] : text.split('\n');
  if (terms.length !== termCount || starts[termCount!] !== postingCount) return null;
  return { postings: new FilePostings(terms, starts, files, counts), end: textAt + termBytes! };
}
