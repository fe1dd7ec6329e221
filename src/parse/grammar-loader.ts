/**
 * Lazily loads tree-sitter once per process (or worker: each worker thread has its
 * own module instance, hence its own wasm runtime) and caches one grammar, one
 * compiled query and one parser per language.
 *
 * Grammar instantiation is serialized per runtime: web-tree-sitter links each
 * grammar into one shared wasm table, and two `Language.load` calls in flight at
 * once corrupt each other's symbol resolution (`bad export type for
 * 'tree_sitter_kotlin_external_scanner_create'`; 12 of 20 cold loads of all
 * grammars failed in one process). Reading the files stays concurrent.
 */
import { readFile } from 'node:fs/promises';
import { isMainThread } from 'node:worker_threads';
import { Language, Parser, Query } from 'web-tree-sitter';
import { queryPath, wasmPath } from './languages.js';
import { prepareFirstParse } from './wasm-tiering.js';

/** A ready-to-use grammar: reuse `parser` sequentially; never share across threads. */
export interface LoadedGrammar {
  readonly id: string;
  readonly language: Language;
  readonly parser: Parser;
  readonly query: Query;
}

let initPromise: Promise<void> | null = null;
const grammars = new Map<string, Promise<LoadedGrammar>>();
/** The tail of the chain of grammar instantiations: each waits for the one before. */
let linking: Promise<unknown> = Promise.resolve();

function initRuntime(): Promise<void> {
  if (!initPromise) {
    // Before the first grammar is compiled (wasm-tiering.ts says why).
    prepareFirstParse(isMainThread);
    initPromise = Parser.init().catch((error: unknown) => {
      // Let a later call retry instead of caching a failed init forever.
      initPromise = null;
      throw error;
    });
  }
  return initPromise;
}

async function load(id: string): Promise<LoadedGrammar> {
  await initRuntime();
  const [wasm, source] = await Promise.all([readFile(wasmPath(id)), readFile(queryPath(id), 'utf8')]);
  const linked = linking.then(() => Language.load(new Uint8Array(wasm.buffer, wasm.byteOffset, wasm.byteLength)));
  // The next load waits for this one whether it succeeds or fails.
  linking = linked.catch(() => undefined);
  const language = await linked;
  const query = new Query(language, source);
  // The extractor only reads `@call.name`; not marshalling every call node as well
  // saves about a quarter of the capture time on call-heavy code.
  query.disableCapture('call');
  const parser = new Parser();
  parser.setLanguage(language);
  return { id, language, parser, query };
}

/**
 * Holds the event loop open while `promise` is pending. A WebAssembly compile is
 * settled by a V8 task, not a libuv handle: awaited with nothing else pending, the
 * loop runs dry and Node.js 20 blocks in `NodePlatform::DrainTasks`, where a
 * background compile that needs a garbage collection on this thread deadlocks it
 * (nodejs/node#54918; seen as `reponav index` hanging at 0% CPU). A ref'd timer keeps
 * the loop polling, so V8's foreground tasks run as they arrive.
 */
function holdingLoop<T>(promise: Promise<T>): Promise<T> {
  const timer = setInterval(() => undefined, 2 ** 30);
  return promise.finally(() => clearInterval(timer));
}

/**
 * The cached grammar for a language id. Concurrent callers share one load; a failed
 * load is evicted so it can be retried. Rejects when the wasm or query is broken.
 */
export function loadGrammar(id: string): Promise<LoadedGrammar> {
  let pending = grammars.get(id);
  if (!pending) {
    pending = holdingLoop(load(id));
    grammars.set(id, pending);
    pending.catch(() => grammars.delete(id));
  }
  return pending;
}
