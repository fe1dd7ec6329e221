/**
 * The part of `zod/mini` reponav's schemas use, in one module: the only zod
 * reponav imports (src/cli/startup/README.md says why the functional API, not
 * the chainable one; lint allows no other import of zod).
 *
 * One module so that the CLI bundle can build it apart (scripts/bundle-cli.mjs):
 * bundled together with the chainable `zod` that the MCP SDK uses, esbuild
 * keeps all of zod's core in the chunk both share, and a `reponav search`
 * process would load it whole. Built alone, it holds only what these names
 * reach. zod keeps its registry and settings on `globalThis`, so schemas made
 * here are described and converted to JSON Schema the same when the other
 * copy of zod's core does it.
 */
import { config, pipe, transform, type core, type ZodMiniPipe, type ZodMiniTransform } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini registers no message locale (zod's chainable API registers English on first use):
// without it, a wrong type would read "Invalid input" instead of "expected string, received number".
config(en());

export {
  _default,
  array,
  boolean,
  coerce,
  describe,
  enum,
  extend,
  gte,
  int,
  literal,
  looseObject,
  lte,
  maxLength,
  minLength,
  nonnegative,
  nullable,
  number,
  object,
  optional,
  partial,
  pipe,
  positive,
  record,
  refine,
  regex,
  strictObject,
  string,
  toJSONSchema,
  transform,
  trim,
  union,
  unknown,
  url,
} from 'zod/mini';
export type { infer, input, output, ZodMiniNumber, ZodMiniType } from 'zod/mini';

/** Any zod schema (either API's), as the core types it. */
export type $ZodType = core.$ZodType;
/** A failed parse's error. */
export type $ZodError = core.$ZodError;
/** One problem of a failed parse. */
export type $ZodIssue = core.$ZodIssue;

/**
 * `fn` applied to the input before `schema` parses it (the chainable API's
 * `z.preprocess`, which zod/mini lacks): a pipe from a transform into `schema`.
 */
export function preprocess<U extends core.$ZodType>(fn: (value: unknown) => unknown, schema: U): ZodMiniPipe<ZodMiniTransform<unknown, unknown>, U> {
  return pipe<ZodMiniTransform<unknown, unknown>, U>(transform(fn), schema);
}
