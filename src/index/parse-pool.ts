import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import { analyzeFile, type FileAnalysis } from './analyze-file.js';

/** Runs file analysis on worker threads, or in-process for small jobs. */
export interface ParsePool {
  analyze(path: string, bytes: Uint8Array): Promise<FileAnalysis>;
  /** Loads these languages' grammars in every worker ahead of their first file (no-op in-process). */
  warm(languageIds: readonly string[]): void;
  close(): Promise<void>;
  readonly workerCount: number;
}

interface Pending {
  resolve: (value: FileAnalysis) => void;
  reject: (error: Error) => void;
}

/**
 * Creates a pool with `workers` threads (0 = parse in this thread). Worker
 * start-up costs a grammar load each, so callers pick 0 for a handful of files.
 * When the compiled worker script is absent (running from TypeScript sources),
 * it parses in-process and says so at debug level.
 */
export function createParsePool(workers: number, logger?: Logger): ParsePool {
  const script = fileURLToPath(new URL('./parse-worker.js', import.meta.url));
  if (workers <= 0 || !existsSync(script)) {
    if (workers > 0) logger?.debug(`worker script ${script} not found; parsing in-process`);
    return { analyze: analyzeFile, warm: () => {}, close: async () => {}, workerCount: 0 };
  }
  const threads: { worker: Worker; load: number }[] = [];
  const pending = new Map<number, Pending>();
  let nextId = 1;
  for (let i = 0; i < workers; i++) {
    const worker = new Worker(script);
    const slot = { worker, load: 0 };
    worker.on('message', (message: { id: number; result?: FileAnalysis; error?: string }) => {
      slot.load--;
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (!waiter) return;
      if (message.error !== undefined) waiter.reject(new Error(message.error));
      else waiter.resolve(message.result!);
    });
    worker.on('error', (error) => {
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    });
    threads.push(slot);
  }
  return {
    workerCount: workers,
    analyze(path, bytes) {
      const slot = threads.reduce((best, t) => (t.load < best.load ? t : best));
      slot.load++;
      const id = nextId++;
      return new Promise<FileAnalysis>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        slot.worker.postMessage({ id, path, bytes });
      });
    },
    warm(languageIds) {
      if (languageIds.length > 0) for (const t of threads) t.worker.postMessage({ warm: [...languageIds] });
    },
    async close() {
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}

/** Default worker count: one per core, at most 4. */
export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}
