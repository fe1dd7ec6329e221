/**
 * Lazily loads tree-sitter once per process (or worker: each worker thread has its
 * own module instance, hence its own wasm runtime) and caches one grammar, one
 * compiled query and one parser per language.
 */
import { readFile } from 'node:fs/promises';
import { Language, Parser, Query } from 'web-tree-sitter';
import { queryPath, wasmPath } from './languages.js';

/** A ready-to-use grammar: reuse `parser` sequentially; never share across threads. */
export interface LoadedGrammar {
  readonly id: string;
  readonly language: Language;
  readonly parser: Parser;
  readonly query: Query;
}

let initPromise: Promise<void> | null = null;
const grammars = new Map<string, Promise<LoadedGrammar>>();

function initRuntime(): Promise<void> {
  if (!initPromise) {
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
  const [language, source] = await Promise.all([
    Language.load(wasmPath(id)),
    readFile(queryPath(id), 'utf8'),
  ]);
  const query = new Query(language, source);
  // The extractor only reads `@call.name`; not marshalling every call node as well
  // saves about a quarter of the capture time on call-heavy code.
  query.disableCapture('call');
  const parser = new Parser();
  parser.setLanguage(language);
  return { id, language, parser, query };
}

/**
 * The cached grammar for a language id. Concurrent callers share one load; a failed
 * load is evicted so it can be retried. Rejects when the wasm or query is broken.
 */
export function loadGrammar(id: string): Promise<LoadedGrammar> {
  let pending = grammars.get(id);
  if (!pending) {
    pending = load(id);
    grammars.set(id, pending);
    pending.catch(() => grammars.delete(id));
  }
  return pending;
}
