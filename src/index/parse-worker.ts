import { parentPort } from 'node:worker_threads';
import { analyzeFile } from './analyze-file.js';

/** Worker-thread entry: answers `{ id, path, bytes }` with `{ id, result }` or `{ id, error }`. */
parentPort?.on('message', async (message: { id: number; path: string; bytes: Uint8Array }) => {
  try {
    const result = await analyzeFile(message.path, message.bytes);
    parentPort!.postMessage({ id: message.id, result });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
