import { parentPort } from 'node:worker_threads';
// eslint-disable-next-line entry-points/no-restricted-paths -- the parser's own entry: loads tree-sitter only where files are parsed (see parse/index.ts)
import { loadGrammar } from '../../parse/grammar-loader.js';
import { analyzeFile } from './analyze-file.js';

type WorkerMessage = { id: number; path: string; bytes: Uint8Array } | { warm: string[] };

/**
 * Worker-thread entry: answers `{ id, path, bytes }` with `{ id, result }` or
 * `{ id, error }`; `{ warm: [language ids] }` loads those grammars ahead of the
 * first file (compiling a grammar takes 100–400 ms) and answers nothing.
 */
parentPort?.on('message', async (message: WorkerMessage) => {
  if ('warm' in message) {
    // A grammar that fails here fails again, with its error, on the first file that needs it.
    await Promise.allSettled(message.warm.map((id) => loadGrammar(id)));
    return;
  }
  try {
    const result = await analyzeFile(message.path, message.bytes);
    parentPort!.postMessage({ id: message.id, result });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
