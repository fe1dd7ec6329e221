/**
 * The text an embedding model sees for one chunk. Code alone under-specifies
 * a chunk (a method named `run` could be anything), so the text leads with
 * the file path, the qualified symbol name and its signature, then the
 * chunk's own lines exactly as the indexer cut them.
 */
import { chunkRangesOfFile, type IndexStore, type StoredChunk } from '../../index/index.js';
import { truncateForEmbedding } from './embedder.js';

/** Characters per chunk text unless configured (matches the embedders' default input cap). */
export const DEFAULT_CHUNK_TEXT_CHARS = 8000;

/**
 * Builds chunk texts from the index (file texts and symbols), remembering the
 * last file read so chunks sorted by path cost one file read per file.
 *
 * Text layout: `path`, then `kind qualifiedName` and the signature for
 * symbol chunks, a blank line, then the code — for a function or class chunk
 * its lines `startLine..endLine`; for a file-remainder chunk only the
 * non-blank lines no other chunk covers (the same lines its content hash was
 * computed from). The result is at most `maxChars` characters.
 */
export class ChunkTextBuilder {
  private cachedPath: string | null = null;
  private lines: string[] = [];
  private signatures = new Map<string, string>();
  private ranges: { id: number; startLine: number; endLine: number }[] = [];

  constructor(
    private readonly store: IndexStore,
    private readonly maxChars: number = DEFAULT_CHUNK_TEXT_CHARS,
  ) {}

  /** The embedding text of `chunk` (see the class comment). */
  text(chunk: StoredChunk): string {
    this.load(chunk.path);
    const header = [chunk.path];
    if (chunk.symbol) {
      header.push(`${chunk.kind} ${chunk.symbol}`);
      const signature = this.signatures.get(`${chunk.symbol}@${chunk.startLine}`) ?? this.signatures.get(chunk.symbol);
      if (signature) header.push(signature);
    }
    const code = chunk.kind === 'file' ? this.remainder(chunk) : this.lines.slice(chunk.startLine - 1, chunk.endLine).join('\n');
    return truncateForEmbedding(`${header.join('\n')}\n\n${code}`, this.maxChars);
  }

  private load(path: string): void {
    if (this.cachedPath === path) return;
    this.cachedPath = path;
    this.lines = (this.store.fileText(path) ?? '').split('\n');
    this.signatures = new Map();
    for (const symbol of this.store.symbolsOf(path)) {
      const signature = symbol.signature.trim();
      if (!signature) continue;
      this.signatures.set(`${symbol.qualifiedName}@${symbol.startLine}`, signature);
      if (!this.signatures.has(symbol.qualifiedName)) this.signatures.set(symbol.qualifiedName, signature);
    }
    this.ranges = chunkRangesOfFile(this.store, path);
  }

  /** A file chunk spans other chunks' lines; keep only the lines it owns, as build-chunks.ts does. */
  private remainder(chunk: StoredChunk): string {
    const covered = new Uint8Array(this.lines.length + 2);
    for (const range of this.ranges) {
      if (range.id === chunk.chunkId) continue;
      for (let line = range.startLine; line <= Math.min(range.endLine, this.lines.length); line++) covered[line] = 1;
    }
    const kept: string[] = [];
    let size = 0;
    for (let line = chunk.startLine; line <= Math.min(chunk.endLine, this.lines.length) && size <= this.maxChars; line++) {
      const content = this.lines[line - 1]!;
      if (covered[line] || !content.trim()) continue;
      kept.push(content);
      size += content.length + 1;
    }
    return kept.join('\n');
  }
}
