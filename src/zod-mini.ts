/**
 * The part of `zod/mini` reponav's tool and search-result schemas use, in one
 * module (src/tools/tool-args.ts says why those schemas are `zod/mini`).
 *
 * One module so that the CLI bundle can build it apart (scripts/bundle-cli.mjs):
 * bundled together with the chainable `zod` that the agents, eval and team
 * server use, esbuild keeps all of zod's core in the chunk both share, and a
 * `reponav search` process would load it whole. Built alone, it holds only
 * what these names reach. zod keeps its registry and settings on `globalThis`,
 * so schemas made here are described and converted to JSON Schema the same
 * when the other copy of zod's core does it (the MCP server's tool listing).
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini registers no message locale (zod's chainable API registers English on first use):
// without it, a wrong type would read "Invalid input" instead of "expected string, received number".
config(en());

export {
  array,
  boolean,
  describe,
  enum,
  extend,
  gte,
  int,
  literal,
  lte,
  maxLength,
  minLength,
  nullable,
  number,
  object,
  optional,
  partial,
  refine,
  strictObject,
  string,
} from 'zod/mini';
export type { infer, ZodMiniType } from 'zod/mini';
