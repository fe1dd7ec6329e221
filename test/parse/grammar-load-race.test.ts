/**
 * Loading every grammar at once in one web-tree-sitter runtime must not fail:
 * the runtime's dynamic linking is not safe for concurrent instantiation, so the
 * loader serializes it. Each worker thread is a fresh runtime, so the worker
 * rounds exercise cold loads several times (the bug failed about half of them).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGrammar } from '../../src/parse/grammar-loader.js';
import { SUPPORTED_LANGUAGES } from '../../src/parse/languages.js';
import { ensureBuilt, PROJECT_ROOT } from '../cli/harness.js';

/** Loads every grammar concurrently in a new worker; resolves with the failure messages. */
function loadAllInWorker(): Promise<string[]> {
  const loader = pathToFileURL(join(PROJECT_ROOT, 'dist/parse/grammar-loader.js')).href;
  const languages = pathToFileURL(join(PROJECT_ROOT, 'dist/parse/languages.js')).href;
  const script = `
    const { parentPort } = await import('node:worker_threads');
    const { loadGrammar } = await import(${JSON.stringify(loader)});
    const { SUPPORTED_LANGUAGES } = await import(${JSON.stringify(languages)});
    const settled = await Promise.allSettled(SUPPORTED_LANGUAGES.map((id) => loadGrammar(id)));
    parentPort.postMessage(settled.flatMap((s, i) => (s.status === 'rejected' ? [SUPPORTED_LANGUAGES[i] + ': ' + String(s.reason)] : [])));
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { eval: true, type: 'module' } as never);
    worker.once('message', (failures: string[]) => {
      resolve(failures);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('grammar loading', () => {
  beforeAll(ensureBuilt, 240_000);

  it('loads every grammar at once in this thread', async () => {
    const settled = await Promise.allSettled(SUPPORTED_LANGUAGES.map((id) => loadGrammar(id)));
    const failures = settled.flatMap((s, i) => (s.status === 'rejected' ? [`${SUPPORTED_LANGUAGES[i]}: ${String(s.reason)}`] : []));
    expect(failures).toEqual([]);
  });

  it('loads every grammar at once in fresh worker threads, round after round', async () => {
    for (let round = 0; round < 2; round++) {
      const failures = (await Promise.all([loadAllInWorker(), loadAllInWorker()])).flat();
      expect(failures, `round ${round}`).toEqual([]);
    }
  }, 120_000);
});
