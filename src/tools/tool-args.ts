/**
 * Argument schemas shared by several tools, so the same argument is spelled,
 * bounded and described the same way everywhere. Each is a builder: the tools
 * build their schemas on first use ({@link lazySchema}), not at load.
 */
import { z } from 'zod';
import { compilePathPattern, MAX_PATTERN_LENGTH } from '../index/index.js';

/** Longest query / description accepted (a long issue text fits; megabytes do not). */
export const MAX_QUERY_CHARS = 20_000;

/** Longest symbol name accepted. */
export const MAX_NAME_CHARS = 300;

/** `repo`: which repository, when a server serves several. */
export const repoArg = () =>
  z
    .string()
    .max(200, 'repo is a repository name of at most 200 characters')
    .optional()
    .describe('Repository name; only when several are served (index_status lists them).');

/** `budget_tokens`: the per-call output budget. */
export const budgetArg = () =>
  z
    .number()
    .int('budget_tokens must be a whole number')
    .min(100, 'budget_tokens must be at least 100')
    .max(100_000, 'budget_tokens must be at most 100000')
    .optional()
    .describe('Answer size cap in tokens (≈4 characters); longer answers end with [TRUNCATED].');

/** `file_pattern`: a glob restricting results to some files. */
export const filePatternArg = () =>
  z
    .string()
    .max(MAX_PATTERN_LENGTH, `file_pattern is limited to ${MAX_PATTERN_LENGTH} characters`)
    .optional()
    .describe(
      'Glob over repository paths: `*.py`, `src/**/*.ts`, `tests/` (folder). Without `/` it matches file names anywhere.',
    );

/** `query`: a natural-language or code query. */
export const queryArg = () =>
  z
    .string()
    .min(1, 'query must not be empty')
    .max(MAX_QUERY_CHARS, `query is limited to ${MAX_QUERY_CHARS} characters`);

/** `top_k`: how many hits to show. */
export const topKArg = () =>
  z
    .number()
    .int('top_k must be a whole number')
    .min(1, 'top_k must be at least 1')
    .max(50, 'top_k must be at most 50')
    .optional()
    .describe('How many hits to show, best first (default 10).');

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
