/**
 * Argument schemas shared by several tools, so the same argument is spelled,
 * bounded and described the same way everywhere. Each is a builder: the tools
 * build their schemas on first use ({@link lazySchema}), not at load.
 *
 * The tools' schemas are written with `zod/mini` (the functional API on the
 * same core as `zod`, imported through src/zod-mini.ts), as every schema of
 * reponav: a CLI process validates one call and never needs the chainable
 * API, whose module was the largest a `reponav search` process loaded
 * (src/cli/startup/README.md). JSON Schema for the MCP listing and the agents
 * comes from the core's `toJSONSchema`.
 */
import * as z from '../zod-mini.js';
import { compilePathPattern, MAX_PATTERN_LENGTH } from '../index/index.js';

/** `schema` with a description for the tool listing (the chainable API's `.describe`). */
export function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  return schema.check(z.describe(description));
}

/** A whole number in [min, max]; `name` words the messages (`limit must be at least 1`). */
export function wholeNumberArg(name: string, min: number, max: number) {
  return z.number().check(
    z.int(`${name} must be a whole number`),
    z.gte(min, `${name} must be at least ${min}`),
    z.lte(max, `${name} must be at most ${max}`),
  );
}

/** A non-empty string of at most `max` characters; `name` words the messages. */
export function nonEmptyStringArg(name: string, max: number) {
  return z.string().check(z.minLength(1, `${name} must not be empty`), z.maxLength(max, `${name} is limited to ${max} characters`));
}

/**
 * Longest query / description accepted (LocBench's longest issue, 38,834
 * characters, fits five times; megabytes do not). Retrieval reads at most
 * MAX_KEPT_QUERY_CHARS of it (retrieve/long-query.ts reduces longer ones).
 */
export const MAX_QUERY_CHARS = 200_000;

/** Longest symbol name accepted. */
export const MAX_NAME_CHARS = 300;

/** `repo`: which repository, when a server serves several. */
export const repoArg = () =>
  described(
    z.optional(z.string().check(z.maxLength(200, 'repo is a repository name of at most 200 characters'))),
    'Repository name; only when several are served (index_status lists them).',
  );

/** `budget_tokens`: the per-call output budget. */
export const budgetArg = () =>
  described(
    z.optional(wholeNumberArg('budget_tokens', 100, 100_000)),
    'Answer size cap in tokens (o200k); longer answers end with [TRUNCATED].',
  );

/** `file_pattern`: a glob restricting results to some files. */
export const filePatternArg = () =>
  described(
    z.optional(z.string().check(z.maxLength(MAX_PATTERN_LENGTH, `file_pattern is limited to ${MAX_PATTERN_LENGTH} characters`))),
    'Glob over repository paths: `*.py`, `src/**/*.ts`, `tests/` (folder). Without `/` it matches file names anywhere.',
  );

/** `query`: a natural-language or code query. */
export const queryArg = (description: string) => described(nonEmptyStringArg('query', MAX_QUERY_CHARS), description);

/** `top_k`: how many hits to show. */
export const topKArg = () => described(z.optional(wholeNumberArg('top_k', 1, 50)), 'How many hits to show, best first (default 10).');

/**
 * A schema built on its first use and kept. zod builds every schema object
 * eagerly (each one binds all its methods), so schemas made at load cost a
 * CLI process that calls one tool the construction of all twelve tools'.
 */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => (schema ??= build());
}

/** A path predicate for an optional file_pattern (undefined when absent or blank). */
export function pathFilterOf(pattern: string | undefined): ((path: string) => boolean) | undefined {
  if (pattern === undefined || pattern.trim() === '') return undefined;
  return compilePathPattern(pattern);
}
