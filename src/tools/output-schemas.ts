/**
 * The documented machine forms of the tools whose JSON is a contract (MCP
 * `outputSchema` + `structuredContent`, CLI `--json`): `search` (the one search
 * result shape, src/scaffold/search-result-json.ts) and
 * `list_symbols` (the skeleton's JSON). Each object also admits the "still
 * indexing" answer, whose fields are optional here: a call answers either the
 * result fields or `indexing: true` with progress, never both.
 */
import { z } from 'zod';
import { searchResultJsonSchema } from '../scaffold/index.js';
import { lazySchema } from './tool-args.js';

/** The fields of a "still indexing, call again" answer (see callTool). */
const indexingShape = () => ({
  indexing: z.literal(true).optional().describe('Present only while the first index is still being built: call again.'),
  repository: z.string().optional(),
  done: z.number().optional(),
  total: z.number().nullable().optional(),
});

/**
 * `search`'s JSON: the one search result shape (scaffold/search-result-json.ts:
 * query, files, modules, functions, scaffold), or the indexing answer.
 */
export const searchOutputSchema = lazySchema(() =>
  searchResultJsonSchema().partial().extend({
    ...indexingShape(),
    provisional: z
      .literal(true)
      .optional()
      .describe('Present only while the first index is being built: files ranked by a plain text scan (provisionalFiles), no symbols.'),
    provisionalFiles: z
      .array(
        z.object({
          path: z.string(),
          score: z.number(),
          matches: z.number(),
          terms: z.array(z.string()),
          line: z.number().nullable(),
          preview: z.string().nullable(),
        }),
      )
      .optional(),
  }),
);

/** `list_symbols`'s JSON: the skeleton (imports, symbols in source order with nesting depth) and the files that import this one. */
export const listSymbolsOutputSchema = lazySchema(() =>
  z.object({
    path: z.string().optional(),
    language: z.string().optional(),
    lineCount: z.number().nullable().optional(),
    status: z.string().optional(),
    errorCount: z.number().optional(),
    imports: z.array(z.object({ source: z.string(), names: z.array(z.string()), line: z.number() })).optional(),
    symbols: z
      .array(
        z.object({
          qualifiedName: z.string(),
          name: z.string(),
          kind: z.string(),
          parent: z.string().nullable(),
          depth: z.number(),
          startLine: z.number(),
          endLine: z.number(),
          signature: z.string(),
          doc: z.string().nullable(),
        }),
      )
      .optional(),
    symbolsLeftOut: z.number().optional(),
    importedBy: z.array(z.string()).optional(),
    ...indexingShape(),
  }),
);
