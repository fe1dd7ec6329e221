/**
 * The documented machine forms of the tools whose JSON is a contract (MCP
 * `outputSchema` + `structuredContent`, CLI `--json`): `search` (the scaffold's
 * JSON, src/scaffold/render-json.ts, plus ranked functions and modules) and
 * `list_symbols` (the skeleton's JSON). Each object also admits the "still
 * indexing" answer, whose fields are optional here: a call answers either the
 * result fields or `indexing: true` with progress, never both.
 */
import { z } from 'zod';

/** The fields of a "still indexing, call again" answer (see callTool). */
const indexingShape = {
  indexing: z.literal(true).optional().describe('Present only while the first index is still being built: call again.'),
  repository: z.string().optional(),
  done: z.number().optional(),
  total: z.number().nullable().optional(),
};

const scaffoldSymbol = {
  qualifiedName: z.string(),
  kind: z.string(),
  startLine: z.number(),
  endLine: z.number(),
  hitScore: z.number().nullable(),
};

const scaffoldFile = z.object({
  rank: z.number(),
  path: z.string(),
  score: z.number(),
  evidence: z.number(),
  expanded: z.boolean(),
  parsed: z.boolean(),
  importedBy: z.array(z.string()),
  anchors: z
    .array(z.object({ ...scaffoldSymbol, matchedTokens: z.array(z.string()), invokes: z.array(z.string()), invokedBy: z.array(z.string()) }))
    .optional(),
  glimpse: z.array(z.object(scaffoldSymbol)).optional(),
  targets: z.array(z.object({ ...scaffoldSymbol, source: z.string() })).optional(),
});

const rankedSymbol = z.object({ path: z.string(), qualifiedName: z.string(), score: z.number() });

/** `search`'s JSON: the scaffold (files ranked, with anchors / glimpse / targets for the expanded ones) and the top 20 functions and modules. */
export const searchOutputSchema = z.object({
  scaffold: z
    .object({ query: z.string(), queryTokens: z.array(z.string()), totalFiles: z.number(), files: z.array(scaffoldFile) })
    .optional(),
  functions: z.array(rankedSymbol).optional(),
  modules: z.array(rankedSymbol).optional(),
  ...indexingShape,
});

/** `list_symbols`'s JSON: the skeleton (imports, symbols in source order with nesting depth) and the files that import this one. */
export const listSymbolsOutputSchema = z.object({
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
  ...indexingShape,
});
