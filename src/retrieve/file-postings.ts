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
 */
export class FilePostings {
  /**
   * @param terms the terms, ascending (see the class comment), in the order of `starts`
   * @param starts `starts[i]..starts[i+1]` is term i's slice of `files` and `counts` (length terms + 1)
   */
  constructor(
    private readonly terms: readonly string[],
    private readonly starts: Uint32Array,
    private readonly files: Uint32Array,
    private readonly counts: Uint32Array,
  ) {}

  /** Packs per-term lists (as built by indexing, in any order). */
  static fromLists(lists: Map<string, { files: number[]; counts: number[] }>): FilePostings {
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
    return this.terms.length;
  }

  /** The postings of `token`, or undefined when no document holds it. Views, not copies: do not write to them. */
  get(token: string): TermPostings | undefined {
    let low = 0;
    let high = this.terms.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const term = this.terms[middle]!;
      if (term < token) low = middle + 1;
      else if (term > token) high = middle - 1;
      else return this.at(middle);
    }
    return undefined;
  }

  private at(i: number): TermPostings {
    const from = this.starts[i]!;
    const to = this.starts[i + 1]!;
    return { files: this.files.subarray(from, to), counts: this.counts.subarray(from, to) };
  }

  /** Every term with its postings, in ascending order of the terms. */
  *entries(): IterableIterator<[string, TermPostings]> {
    for (let i = 0; i < this.terms.length; i++) yield [this.terms[i]!, this.at(i)];
  }

  /** The packed arrays, for serialization. */
  packed(): { terms: readonly string[]; starts: Uint32Array; files: Uint32Array; counts: Uint32Array } {
    return { terms: this.terms, starts: this.starts, files: this.files, counts: this.counts };
  }
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
// 2: terms stored in ascending order (1 kept them in the order first met).
const VERSION = 2;
const HEADER_WORDS = 8;

/**
 * The index as bytes: a header, then four 4-byte-aligned Uint32 sections
 * (document lengths, term starts, files, counts), then the paths joined by NUL
 * (a path cannot hold one) and the terms joined by newlines (a token cannot).
 */
export function serializeFileIndex(index: PackedFileIndex): Buffer {
  const { terms, starts, files, counts } = index.postings.packed();
  const paths = Buffer.from(index.paths.join('\0'), 'utf8');
  const termText = Buffer.from(terms.join('\n'), 'utf8');
  const lengths = Uint32Array.from(index.lengths);
  const header = new Uint32Array(HEADER_WORDS);
  const average = new Float64Array([index.averageLength]);
  header.set([MAGIC, VERSION, index.paths.length, terms.length, files.length, paths.length, termText.length, 0]);
  return Buffer.concat([
    Buffer.from(header.buffer),
    Buffer.from(average.buffer),
    Buffer.from(lengths.buffer),
    Buffer.from(starts.buffer, starts.byteOffset, starts.byteLength),
    Buffer.from(files.buffer, files.byteOffset, files.byteLength),
    Buffer.from(counts.buffer, counts.byteOffset, counts.byteLength),
    paths,
    termText,
  ]);
}

/** A serialized index, or null when the bytes are not one (a damaged or foreign file is a cache miss). */
export function parseFileIndex(payload: Uint8Array): PackedFileIndex | null {
  if (payload.byteLength < HEADER_WORDS * 4 + 8) return null;
  // One copy into a fresh buffer: typed-array views need 4-byte alignment, which the cache's payload lacks.
  const bytes = new Uint8Array(payload.byteLength);
  bytes.set(payload);
  const buffer = bytes.buffer;
  const header = new Uint32Array(buffer, 0, HEADER_WORDS);
  const [magic, version, pathCount, termCount, postingCount, pathBytes, termBytes] = header as unknown as number[];
  if (magic !== MAGIC || version !== VERSION) return null;
  let offset = HEADER_WORDS * 4;
  const averageLength = new Float64Array(buffer, offset, 1)[0]!;
  offset += 8;
  const expected = offset + 4 * (pathCount! + termCount! + 1 + 2 * postingCount!) + pathBytes! + termBytes!;
  if (expected !== bytes.byteLength) return null;
  const section = (length: number) => {
    const view = new Uint32Array(buffer, offset, length);
    offset += 4 * length;
    return view;
  };
  const lengths = Float64Array.from(section(pathCount!));
  const starts = section(termCount! + 1);
  const files = section(postingCount!);
  const counts = section(postingCount!);
  const decoder = new TextDecoder();
  const pathText = decoder.decode(bytes.subarray(offset, offset + pathBytes!));
  offset += pathBytes!;
  const termText = decoder.decode(bytes.subarray(offset, offset + termBytes!));
  const paths = pathCount === 0 ? [] : pathText.split('\0');
  const terms = termCount === 0 ? [] : termText.split('\n');
  if (paths.length !== pathCount || terms.length !== termCount || starts[termCount!] !== postingCount) return null;
  return { paths, lengths, averageLength, postings: new FilePostings(terms, starts, files, counts) };
}
