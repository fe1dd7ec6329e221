/**
 * Parses one file into the shared symbol model. The only entry point the indexer
 * needs; safe in worker threads (each worker loads its own tree-sitter runtime).
 */
import { createHash } from 'node:crypto';
import type { Node, Tree } from 'web-tree-sitter';
import { buildSymbols } from './build-symbols.js';
import { captureFacts } from './capture-facts.js';
import { decodeSource } from './decode-source.js';
import { loadGrammar } from './grammar-loader.js';
import { languageForPath, languageSpec, type LanguageId } from './languages.js';
import { lineStartsOf } from './line-starts.js';
import { isolateErrors } from './recover-blocks.js';
import type { ParsedFile } from './symbol-model.js';

/**
 * Whether a language's syntax errors are isolated by layout (see recover-blocks.ts):
 * every brace or `end` language. Python is not: its grammar already recovers by
 * indentation; nor is Bash. One entry per language, so a new one must say.
 */
const ISOLATE_ERRORS: Readonly<Record<LanguageId, boolean>> = {
  python: false,
  javascript: true,
  typescript: true,
  tsx: true,
  java: true,
  go: true,
  rust: true,
  c: true,
  cpp: true,
  csharp: true,
  ruby: true,
  php: true,
  kotlin: true,
  swift: true,
  scala: true,
  bash: false,
};


/** Lines as an editor shows them: a final newline does not start a new line. */
function countLines(text: string, lineStarts: readonly number[]): number {
  if (text.length === 0) return 0;
  return text.endsWith('\n') ? lineStarts.length - 1 : lineStarts.length;
}

/** ERROR and MISSING nodes, visiting only subtrees that contain an error. */
function countErrors(root: Node): number {
  if (!root.hasError) return 0;
  let count = 0;
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.isError || node.isMissing) count++;
    const n = node.childCount;
    for (let i = 0; i < n; i++) {
      const child = node.child(i);
      if (child && (child.hasError || child.isMissing)) pending.push(child);
    }
  }
  return count;
}

/**
 * Parses `bytes` (the file at repository-relative `path`) into symbols and imports.
 *
 * Never rejects for bad input: an unknown extension gives status `unsupported`
 * (language `unknown`, no symbols), a tree with ERROR/MISSING nodes gives `partial`
 * with whatever was recovered, and a parser or grammar failure gives `failed`
 * with its message in `failure`.
 * `contentHash` (sha1 hex of the raw bytes) and `lineCount` are always set.
 */
export async function parseSource(path: string, bytes: Uint8Array): Promise<ParsedFile> {
  return (await parseSourceText(path, bytes)).parsed;
}

/**
 * {@link parseSource}, with the decoded text it parsed (UTF-8, BOM dropped, or
 * Windows-1252 when the bytes are not UTF-8), so a caller that needs the text too does not decode again.
 */
export async function parseSourceText(path: string, bytes: Uint8Array): Promise<{ parsed: ParsedFile; text: string }> {
  const { result, text, lineStarts } = unparsed(path, bytes);
  const parsed = await parseDecoded(path, bytes, result, text, lineStarts);
  return { parsed, text };
}

async function parseDecoded(path: string, bytes: Uint8Array, result: ParsedFile, text: string, lineStarts: number[]): Promise<ParsedFile> {
  const language = languageForPath(path);
  if (!language) return result;
  result.language = language;

  let tree: Tree | null = null;
  try {
    const grammar = await loadGrammar(language);
    // The parser is shared per language: nothing below awaits, so no other parse interleaves.
    tree = grammar.parser.parse(text);
    if (!tree) throw new Error('tree-sitter returned no tree');
    const facts = captureFacts(grammar.query, tree.rootNode, text);
    const spec = languageSpec(language);
    result.errorCount = countErrors(tree.rootNode);
    result.imports = facts.imports;
    result.symbols = buildSymbols({ facts, source: text, lineStarts, spec });
    result.status = result.errorCount > 0 ? 'partial' : 'ok';
    if (result.errorCount > 0 && ISOLATE_ERRORS[spec.id]) {
      // The broken pieces blanked out: same lines and offsets, so spans stay true.
      const isolated = isolateErrors(grammar.parser, text, lineStarts);
      const retry = isolated === null ? null : grammar.parser.parse(isolated);
      try {
        if (retry && isolated !== null) {
          const recovered = captureFacts(grammar.query, retry.rootNode, isolated);
          const symbols = buildSymbols({ facts: recovered, source: isolated, lineStarts, spec });
          if (symbols.length > result.symbols.length) {
            result.symbols = symbols;
            result.imports = recovered.imports;
          }
        }
      } finally {
        retry?.delete();
      }
    }
  } catch (error) {
    return failedParse(path, bytes, error instanceof Error ? error.message : String(error));
  } finally {
    tree?.delete();
  }
  return result;
}

/**
 * The record of a file that could not be parsed: status `failed`, no symbols or
 * imports, `failure` saying why (kept in the index, shown by `status`, and the
 * file is parsed again by the next run).
 */
export function failedParse(path: string, bytes: Uint8Array, reason: string): ParsedFile {
  const { result } = unparsed(path, bytes);
  result.language = languageForPath(path) ?? 'unknown';
  result.status = 'failed';
  result.failure = reason.split('\n')[0]!.slice(0, 300) || 'unknown error';
  return result;
}

/** The fields every outcome shares (hash, line count, decoding), with status `unsupported`. */
function unparsed(path: string, bytes: Uint8Array): { result: ParsedFile; text: string; lineStarts: number[] } {
  const { text, notUtf8: replaced } = decodeSource(bytes);
  const lineStarts = lineStartsOf(text);
  const result: ParsedFile = {
    path,
    language: 'unknown',
    contentHash: createHash('sha1').update(bytes).digest('hex'),
    status: 'unsupported',
    errorCount: 0,
    decodedWithReplacement: replaced,
    lineCount: countLines(text, lineStarts),
    imports: [],
    symbols: [],
  };
  return { result, text, lineStarts };
}
