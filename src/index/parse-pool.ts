import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import { analyzeFile, failedAnalysis, type FileAnalysis } from './analyze-file.js';

/**
 * Runs file analysis on worker threads, or in-process for small jobs. `analyze`
 * never rejects: a file whose analysis throws, or that was on a worker that
 * crashed {@link MAX_ATTEMPTS} times, comes back as a `failed` parse with the
 * reason, so one bad file never stops an index run.
 */
export interface ParsePool {
  analyze(path: string, bytes: Uint8Array): Promise<FileAnalysis>;
  /** Loads these languages' grammars in every worker ahead of their first file (no-op in-process). */
  warm(languageIds: readonly string[]): void;
  close(): Promise<void>;
  readonly workerCount: number;
}

/** Options for tests: another worker script (one that crashes on cue). */
export interface ParsePoolOptions {
  /** Absolute path of the worker script; default: the compiled parse-worker.js beside this module. */
  workerScript?: string;
}

/**
 * Young generation of each parse worker, in MB (V8 splits it into two 8 MB
 * semi-spaces and a large-object space). V8's default let each isolate's new
 * space reach 32 MB; a worker's garbage is short-lived (one file's parse), so a
 * smaller one is collected as cheaply.
 */
const WORKER_YOUNG_GENERATION_MB = 24;

/**
 * V8 grows an isolate's old-generation limit to up to 4× its live size after
 * each full collection, so three isolates (this thread and two workers) each
 * kept ~90 MB of heap for ~20-60 MB of live data. While the pool runs, the
 * limit grows by half the live size instead; restored to V8's default (0:
 * its own dynamic factor) when the last pool closes.
 */
const HEAP_GROWING_PERCENT = 50;
let openPools = 0;

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
  let warmed: string[] = [];
  // A script that dies on start-up would otherwise be replaced forever.
  let replacementsLeft = 4 + workers * 2;

  const dispatch = (job: Job): void => {
    if (slots.length === 0) {
      void analyzeHere(job.path, job.bytes).then(job.resolve);
      return;
    }
    const slot = slots.reduce((best, s) => (s.jobs.size < best.jobs.size ? s : best));
    job.attempts++;
    slot.jobs.set(job.id, job);
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
        job.resolve(failedAnalysis(job.path, job.bytes, `the parse worker crashed ${job.attempts} times on this file (${reason})`));
      } else dispatch(job);
    }
  };

  const start = (): Slot => {
    const slot: Slot = { worker: new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } }), jobs: new Map() };
    slot.worker.on('message', (message: { id: number; result?: FileAnalysis; error?: string }) => {
      const job = slot.jobs.get(message.id);
      if (!job) return;
      slot.jobs.delete(message.id);
      if (message.error !== undefined) job.resolve(failedAnalysis(job.path, job.bytes, message.error));
      else job.resolve(message.result!);
    });
    slot.worker.on('error', (error) => {
      slot.lastError = error.message;
    });
    slot.worker.on('exit', (code) => {
      if (!closing) onCrash(slot, code);
    });
    if (warmed.length > 0) slot.worker.postMessage({ warm: warmed });
    return slot;
  };

  if (openPools++ === 0) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  for (let i = 0; i < workers; i++) slots.push(start());
  return {
    workerCount: workers,
    analyze(path, bytes) {
      return new Promise<FileAnalysis>((resolve) => dispatch({ id: nextId++, path, bytes, attempts: 0, resolve }));
    },
    warm(languageIds) {
      warmed = [...languageIds];
      if (warmed.length > 0) for (const slot of slots) slot.worker.postMessage({ warm: warmed });
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
