/**
 * A V8 code cache for the CLI's hot commands. Compiling the ~1.3 MB of
 * bundled JavaScript a `search` runs was the largest part of its start-up
 * after Node.js itself; V8 can instead take the machine code of an earlier
 * run. Node.js 22.1+ offers that as module.enableCompileCache(), Node.js 20
 * only for a vm.Script given `cachedData`, so the hot commands are one
 * CommonJS bundle (hot-main.ts) compiled here.
 *
 * The cache is written after a run, at exit, so it holds every function that
 * run compiled (the code V8 produces right after compiling holds only the
 * top level: the reason this is not the `v8-compile-cache` package, which
 * also hooks every require() of the process). One file per command and
 * Node.js version under the reponav cache folder: a header with the SHA-1 of
 * the bundle it was made from and of its own payload, then V8's data. A file
 * made from another bundle (an upgrade), damaged, truncated or refused by V8
 * (another V8 or flags) is a miss: the bundle is compiled as usual and the
 * file written again. Writes go to a unique temporary name renamed into place;
 * a folder that cannot be written means no cache, never an error.
 */
import { isAscii } from 'node:buffer';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

const MAGIC = Buffer.from('reponav-code-cache 1\n');
const HASH_BYTES = 20;
const HEADER_BYTES = MAGIC.length + 2 * HASH_BYTES;

/** What became of the cache file: used, or why not. */
export type CodeCacheOutcome = 'hit' | 'missing' | 'stale' | 'damaged' | 'rejected';

/** A CommonJS file run with a code cache. */
export interface CompiledModule {
  exports: Record<string, unknown>;
  cache: CodeCacheOutcome;
}

/**
 * Runs the CommonJS file `file` (as require() would) compiled with the code
 * cache at `cacheFile`, and arranges for that cache to be written at exit
 * unless it was used. Null when `file` cannot be read (the caller then loads
 * its code another way); errors thrown by the module itself propagate.
 */
export function requireWithCodeCache(file: string, cacheFile: string): CompiledModule | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  const sourceHash = sha1(bytes);
  // esbuild writes ASCII (its default charset): read as Latin-1, the same text without UTF-8
  // decoding (5 -> 2 ms for the 1.35 MB bundle); any other bytes are decoded as UTF-8.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const { data, outcome } = readCache(cacheFile, sourceHash);
  // The wrapper Node.js puts around a CommonJS module, on the source's first line (line numbers stay).
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
    filename: file,
    cachedData: data ?? undefined,
  });
  const cache = data && script.cachedDataRejected ? 'rejected' : outcome;
  if (cache !== 'hit') process.once('exit', () => writeCache(cacheFile, sourceHash, script));
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, cache };
}

function sha1(data: string | Buffer): Buffer {
  return createHash('sha1').update(data).digest();
}

/** The cached data for a source with hash `sourceHash`, or why there is none. */
function readCache(path: string, sourceHash: Buffer): { data: Buffer | null; outcome: CodeCacheOutcome } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return { data: null, outcome: 'missing' };
  }
  if (bytes.length <= HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return { data: null, outcome: 'damaged' };
  if (!bytes.subarray(MAGIC.length, MAGIC.length + HASH_BYTES).equals(sourceHash)) return { data: null, outcome: 'stale' };
  const payload = bytes.subarray(HEADER_BYTES);
  // V8 checks its data's version, flags and source length, but release builds skip its checksum:
  // Node.js 20.20 given a cache with 20 flipped bytes died in V8's deserializer ("unreachable code").
  if (!sha1(payload).equals(bytes.subarray(MAGIC.length + HASH_BYTES, HEADER_BYTES))) return { data: null, outcome: 'damaged' };
  return { data: payload, outcome: 'hit' };
}

/** Writes the code `script` holds now (everything this run compiled); any failure leaves no file behind. */
function writeCache(path: string, sourceHash: Buffer, script: Script): void {
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    const payload = script.createCachedData();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temporary, Buffer.concat([MAGIC, sourceHash, sha1(payload), payload]));
    renameSync(temporary, path);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written, or nothing can be removed: either way no cache.
    }
  }
}
