import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logger.js';
import { languageForPath } from '../../parse/index.js';
import { analyzeFile, failedAnalysis, type FileAnalysis } from './analyze-file.js';
import { countOf } from '../../plural.js';

/**
 * Runs file analysis on worker threads, or in-process for small jobs. `analyze`
 * never rejects: a file whose analysis throws, or that was on a worker that
 * crashed {@link MAX_ATTEMPTS} times, comes back as a `failed` parse with the
 * reason, so one bad file never stops an index run.
 */
export interface ParsePool {
  analyze(path: string, bytes: Uint8Array): Promise<FileAnalysis>;
  /**
   * Says how many files of each language the run will parse, and loads their grammars ahead of
   * the first file (no-op in-process): a language with few files is parsed by one worker only
   * (see {@link assignLanguages}), the others by every worker.
   */
  warm(fileCounts: ReadonlyMap<string, number>): void;
  close(): Promise<void>;
  readonly workerCount: number;
}

/** Options for tests: another worker script (one that crashes on cue). */
export interface ParsePoolOptions {
  /** Absolute path of the worker script; default: the compiled parse-worker.js beside this module. */
  workerScript?: string;
}

/**
 * Young generation of each parse worker, in MB (V8 splits it into two
 * semi-spaces and a large-object space). V8's default let each isolate's new
 * space reach 32 MB; a worker's garbage is short-lived (one file's parse), so a
 * smaller one is collected as cheaply: 12 MB against 24 MB, the CPU of one
 * worker analyzing 500 files (min of 3 alternated runs) 3.44 vs 3.68 s, and the
 * large tree's peak RSS ~10 MB lower.
 */
const WORKER_YOUNG_GENERATION_MB = 12;

/**
 * V8 grows an isolate's old-generation limit to up to 4× its live size after
 * each full collection, so three isolates (this thread and two workers) each
 * kept ~90 MB of heap for ~20-60 MB of live data. While the pool runs, the
 * limit grows by half the live size instead; restored to V8's default (0:
 * its own dynamic factor) when the last pool closes.
 */
const HEAP_GROWING_PERCENT = 50;
let openPools = 0;

/**
 * A language whose files are at most this share of the run's parsed files is
 * parsed by one worker only. Each worker holds its own copy of every grammar
 * it loads (V8 does not share the compiled module or its data between
 * isolates): the C++, C# and Ruby grammars cost ~35 MB in each worker, on an
 * 11k-file tree with 10 of their files among 8,000 Python ones.
 */
const RARE_LANGUAGE_SHARE = 0.02;

/**
 * A language with fewer files than this is parsed by one worker only, whatever
 * its share: each further worker would compile its grammar again, ~130 ms of
 * CPU a grammar (baseline compiler) against ~3 ms a file's parse, so sharing
 * it buys less time than it costs. Four copies of a 14-language fixture (200
 * files, ~14 a language) cost 4.3 CPU s with every grammar in both workers and
 * 2.5 s with one worker, in the same wall time.
 */
const MIN_SHARED_FILES = 64;

/**
 * Which worker parses each language: a worker index for a language too small
 * to be worth a second copy of its grammar (at most {@link RARE_LANGUAGE_SHARE}
 * of the files, or fewer than {@link MIN_SHARED_FILES}; these spread over the
 * workers, most files first, each to the worker with the fewest so far), null
 * for a language every worker parses.
 */
export function assignLanguages(fileCounts: ReadonlyMap<string, number>, workers: number): Map<string, number | null> {
  const total = [...fileCounts.values()].reduce((a, b) => a + b, 0);
  const assigned = new Map<string, number | null>();
  const load = new Array<number>(Math.max(1, workers)).fill(0);
  const byCount = [...fileCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [language, count] of byCount) {
    if (workers < 2 || (count > total * RARE_LANGUAGE_SHARE && count >= MIN_SHARED_FILES)) {
      assigned.set(language, null);
      continue;
    }
    const home = load.indexOf(Math.min(...load));
    load[home]! += count;
    assigned.set(language, home);
  }
  return assigned;
}

/**
 * Source files (those with a grammar) of at least this many bytes are all parsed by one worker. tree-sitter's
 * wasm memory grows to fit the largest tree an isolate has built and never
 * shrinks (one 1 MB Python file: ~+80 MB RSS), so with large files spread over
 * every worker each of them ends the run that much bigger; sent to one, only
 * it does. The others take more of the small files meanwhile (dispatch by queued bytes).
 */
export const LARGE_FILE_BYTES = 128 * 1024;

/** How often a file is sent to a worker before a crash counts as its own failure. */
export const MAX_ATTEMPTS = 3;

interface Job {
  id: number;
  path: string;
  bytes: Uint8Array;
  attempts: number;
  resolve: (value: FileAnalysis) => void;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
  /** Bytes of the files in `jobs`: the load a new file is balanced by (a large file weighs as much as many small ones). */
  queuedBytes: number;
  /** The last 'error' the worker raised, for the reason of a crash. */
  lastError?: string;
}

/** Analyzes in this thread; an exception becomes a failed parse instead of a rejection. */
async function analyzeHere(path: string, bytes: Uint8Array): Promise<FileAnalysis> {
  try {
    return await analyzeFile(path, bytes);
  } catch (error) {
    return failedAnalysis(path, bytes, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Hand-written rather than piscina/tinypool/workerpool: the pool needs
 * `warm()` sent to every worker (those libraries hand a task to one free
 * worker and have no broadcast), and a same-thread fallback when the compiled
 * worker script is absent; what is left (least-loaded dispatch, id-matched
 * replies) is a few dozen lines, not worth a dependency.
 *
 * Creates a pool with `workers` threads (0 = parse in this thread). Worker
 * start-up costs a grammar load each, so callers pick 0 for a handful of files.
 * When the compiled worker script is absent (running from TypeScript sources),
 * it parses in-process and says so at debug level.
 *
 * A worker that dies (an uncaught error, a native crash, out of memory) is
 * replaced and the files it held are sent again; after a bounded number of
 * replacements the pool parses the rest in this thread.
 */
export function createParsePool(workers: number, logger?: Logger, options: ParsePoolOptions = {}): ParsePool {
  const script = options.workerScript ?? fileURLToPath(new URL('./parse-worker.js', import.meta.url));
  if (workers <= 0 || !existsSync(script)) {
    if (workers > 0) logger?.debug(`worker script ${script} not found; parsing in-process`);
    return { analyze: analyzeHere, warm: () => {}, close: async () => {}, workerCount: 0 };
  }
  const slots: Slot[] = [];
  let nextId = 1;
  let closing = false;
  // Languages every worker parses (warmed in a replacement too), and the home worker of each rare one.
  let shared: string[] = [];
  let homes = new Map<string, number | null>();
  // A script that dies on start-up would otherwise be replaced forever.
  let replacementsLeft = 4 + workers * 2;

  const dispatch = (job: Job): void => {
    if (slots.length === 0) {
      void analyzeHere(job.path, job.bytes).then(job.resolve);
      return;
    }
    const language = languageForPath(job.path);
    const home = language === null ? null : homes.get(language);
    // A rare language's files go to its worker (after a crash, whichever now holds that place);
    // large source files to the first worker.
    const slot =
      home !== null && home !== undefined
        ? slots[home % slots.length]!
        : language !== null && job.bytes.length >= LARGE_FILE_BYTES
          ? slots[0]!
          : slots.reduce((best, s) => (s.queuedBytes < best.queuedBytes ? s : best));
    job.attempts++;
    slot.jobs.set(job.id, job);
    slot.queuedBytes += job.bytes.length;
    slot.worker.postMessage({ id: job.id, path: job.path, bytes: job.bytes });
  };

  const onCrash = (slot: Slot, code: number): void => {
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    const reason = slot.lastError ?? `exit code ${code}`;
    const orphans = [...slot.jobs.values()];
    logger?.warn(`a parse worker stopped (${reason}) with ${orphans.length} file(s) in hand; ${replacementsLeft > 0 ? 'starting another' : 'parsing the rest in this process'}`);
    if (replacementsLeft > 0) {
      replacementsLeft--;
      slots.push(start());
    }
    for (const job of orphans) {
      if (job.attempts >= MAX_ATTEMPTS) {
        job.resolve(failedAnalysis(job.path, job.bytes, `the parse worker crashed ${countOf(job.attempts, 'time')} on this file (${reason})`));
      } else dispatch(job);
    }
  };

  const start = (): Slot => {
    const slot: Slot = { worker: new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } }), jobs: new Map(), queuedBytes: 0 };
    slot.worker.on('message', (message: { id: number; result?: FileAnalysis; error?: string }) => {
      const job = slot.jobs.get(message.id);
      if (!job) return;
      slot.jobs.delete(message.id);
      slot.queuedBytes -= job.bytes.length;
      if (message.error !== undefined) job.resolve(failedAnalysis(job.path, job.bytes, message.error));
      else job.resolve(message.result!);
    });
    slot.worker.on('error', (error) => {
      slot.lastError = error.message;
    });
    slot.worker.on('exit', (code) => {
      if (!closing) onCrash(slot, code);
    });
    if (shared.length > 0) slot.worker.postMessage({ warm: shared });
    return slot;
  };

  if (openPools++ === 0) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  for (let i = 0; i < workers; i++) slots.push(start());
  return {
    workerCount: workers,
    analyze(path, bytes) {
      return new Promise<FileAnalysis>((resolve) => dispatch({ id: nextId++, path, bytes, attempts: 0, resolve }));
    },
    warm(fileCounts) {
      homes = assignLanguages(fileCounts, slots.length);
      shared = [...homes].filter(([, home]) => home === null).map(([language]) => language);
      slots.forEach((slot, i) => {
        const languages = [...homes].filter(([, home]) => home === null || home === i).map(([language]) => language);
        if (languages.length > 0) slot.worker.postMessage({ warm: languages });
      });
    },
    async close() {
      if (closing) return;
      closing = true;
      if (--openPools === 0) setFlagsFromString('--heap-growing-percent=0');
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

/** Default worker count: one per core, at most 4. */
export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}
