/**
 * JSONL reading and crash-safe appending. Reading streams line by line (flat
 * memory) and never throws on a bad line; appending writes one whole line per
 * call and fsyncs it, so a crash or Ctrl-C leaves at most a torn last line,
 * which {@link JsonlAppender.open} repairs before appending again.
 */
import { closeSync, createReadStream, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ReponavError } from '../errors.js';

/** One non-blank line of a JSONL file: its parsed value, or why it did not parse. */
export type JsonlLine =
  | { lineNumber: number; ok: true; value: unknown }
  | { lineNumber: number; ok: false; reason: string };

/**
 * Streams the lines of a JSONL file (1-based line numbers, blank lines skipped).
 * Throws ReponavError FILE_NOT_FOUND when `path` is not a readable file; a line
 * that is not JSON is yielded as `{ ok: false, reason }`, never thrown.
 */
export async function* readJsonlLines(path: string): AsyncGenerator<JsonlLine> {
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) throw new ReponavError('FILE_NOT_FOUND', `JSONL file not found: ${path}`, { path });
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    try {
      yield { lineNumber, ok: true, value: JSON.parse(line) as unknown };
    } catch (error) {
      yield { lineNumber, ok: false, reason: `invalid JSON: ${(error as Error).message}` };
    }
  }
}

/** True when `path` exists as a regular file. */
export function fileExists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Appends JSON values as lines to a file, one write + fsync per value, so every
 * completed `append` survives a crash. Single-writer: do not share the file
 * between processes.
 */
export class JsonlAppender {
  private fd: number | null;

  private constructor(
    fd: number,
    /** Bytes of a torn trailing line removed when the file was opened (0 normally). */
    readonly repairedBytes: number,
  ) {
    this.fd = fd;
  }

  /**
   * Opens `path` for appending (creating it; the directory must exist). With
   * `truncate` the file is emptied first. Otherwise a trailing partial line (no
   * final newline, left by a crash mid-write) is cut off so the next line starts
   * cleanly; its byte count is in `repairedBytes`.
   */
  static open(path: string, options: { truncate?: boolean } = {}): JsonlAppender {
    const fd = openSync(path, options.truncate ? 'w+' : 'a+');
    try {
      return new JsonlAppender(fd, options.truncate ? 0 : repairTornTail(fd));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Writes `value` as one JSON line and fsyncs it. */
  append(value: unknown): void {
    if (this.fd === null) throw new ReponavError('INTERNAL', 'JsonlAppender used after close');
    const buffer = Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(this.fd, buffer, offset, buffer.length - offset);
    fsyncSync(this.fd);
  }

  /** Closes the file; further appends throw. Idempotent. */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}

/** Truncates `fd` after its last newline when it does not end with one; returns bytes removed. */
function repairTornTail(fd: number): number {
  const size = fstatSync(fd).size;
  if (size === 0) return 0;
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  let keep = 0;
  // Scan backwards for the last '\n'; keep everything up to and including it.
  search: while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const length = end - start;
    readSync(fd, chunk, 0, length, start);
    for (let i = length - 1; i >= 0; i--) {
      if (chunk[i] === 0x0a) {
        keep = start + i + 1;
        break search;
      }
    }
    end = start;
  }
  if (keep === size) return 0;
  ftruncateSync(fd, keep);
  return size - keep;
}
