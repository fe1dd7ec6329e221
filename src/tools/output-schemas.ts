/**
 * The documented machine forms of the tools whose JSON is a contract (MCP
 * `outputSchema` + `structuredContent`, CLI `--json`): `search` (the one search
 * result shape, src/scaffold/search-result-json.ts) and
 * `list_symbols` (the skeleton's JSON). Each object also admits the "still
 * indexing" answer, whose fields are optional here: a call answers either the
 * result fields or `indexing: true` with progress, never both.
 */
import * as z from '../zod-mini.js';
import { searchResultJsonSchema } from '../scaffold/index.js';
import { described, lazySchema } from './tool-args.js';

/** The fields of a "still indexing, call again" answer (see callTool). */
const indexingShape = () => ({
  indexing: described(z.optional(z.literal(true)), 'Present only while the first index is still being built: call again.'),
  repository: z.optional(z.string()),
  done: z.optional(z.number()),
  total: z.optional(z.nullable(z.number())),
});

/**
 * `search`'s JSON: the one search result shape (scaffold/search-result-json.ts:
 * query, files, modules, functions, scaffold), or the indexing answer.
 */
export const searchOutputSchema = lazySchema(() =>
  z.extend(z.partial(searchResultJsonSchema()), {
    ...indexingShape(),
    rerank: described(
      z.optional(
        z.object({
          model: z.string(),
          candidates: z.number(),
          calls: z.number(),
          inputTokens: z.number(),
          outputTokens: z.number(),
          costUsd: z.nullable(z.number()),
          unknownIds: z.number(),
          repeatedIds: z.number(),
          missingIds: z.number(),
          cutReplies: z.number(),
          reasks: z.number(),
          fallback: z.nullable(z.string()),
        }),
      ),
      'Present when the call asked for rerank: which model ordered `functions`, at what cost, what its replies got wrong; `fallback` is the failure when the retrieval order was kept.',
    ),
    partialIndex: described(
      z.optional(
        z.object({
          indexedFiles: z.number(),
          totalFiles: z.number(),
          rankedFiles: z.number(),
          neighbourFiles: z.number(),
          complete: z.literal(false),
        }),
      ),
      'Present only on a first answer made while the index is still being built: the answer comes from the indexedFiles of totalFiles ' +
        'indexed first (rankedFiles a text scan ranked first, neighbourFiles they import or that come next); search again for the full answer.',
    ),
    provisional: described(
      z.optional(z.literal(true)),
      'Present only while the first index is being built: files ranked by a plain text scan (provisionalFiles), no symbols.',
    ),
    provisionalFiles: z.optional(
      z.array(
        z.object({
          path: z.string(),
          score: z.number(),
          matches: z.number(),
          terms: z.array(z.string()),
          line: z.nullable(z.number()),
          preview: z.nullable(z.string()),
        }),
      ),
    ),
  }),
);

/** `list_symbols`'s JSON: the skeleton (imports, symbols in source order with nesting depth) and the files that import this one. */
export const listSymbolsOutputSchema = lazySchema(() =>
  z.object({
    path: z.optional(z.string()),
    language: z.optional(z.string()),
    lineCount: z.optional(z.nullable(z.number())),
    status: z.optional(z.string()),
    errorCount: z.optional(z.number()),
    imports: z.optional(z.array(z.object({ source: z.string(), names: z.array(z.string()), line: z.number() }))),
    symbols: z.optional(
      z.array(
        z.object({
          qualifiedName: z.string(),
          name: z.string(),
          kind: z.string(),
          parent: z.nullable(z.string()),
          depth: z.number(),
          startLine: z.number(),
          endLine: z.number(),
          signature: z.string(),
          doc: z.nullable(z.string()),
        }),
      ),
    ),
    symbolsLeftOut: z.optional(z.number()),
    importedBy: z.optional(z.array(z.string())),
    ...indexingShape(),
  }),
);
