/**
 * Tool arguments as a model or a person sends them, checked against a tool's
 * object schema before zod sees them: an argument name the tool does not take
 * is an error naming the closest one it does (`filePattern` → `file_pattern`),
 * so a misspelling never silently widens an answer; a number sent as a
 * numeric string (`"top_k": "5"`) is taken as that number, since the schema
 * leaves no other reading of it.
 */
import { editDistance } from '../index/index.js';
import type { $ZodType } from '../zod-mini.js';

/** Arguments after normalization, or the one-sentence reason they are refused. */
export type PreparedArgs = { ok: true; args: unknown } | { ok: false; message: string };

interface Shape {
  [key: string]: $ZodType;
}

/** The property schemas of an object schema (through refinements, which keep the def), or null for other schemas. */
export function objectShape(schema: $ZodType): Shape | null {
  const def = schema._zod.def as { type: string; shape?: Shape };
  return def.type === 'object' && def.shape ? def.shape : null;
}

/** The schema inside optional/nullable/default wrappers. */
function unwrapped(schema: $ZodType): $ZodType {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const def = current._zod.def as { type: string; innerType?: $ZodType };
    if (!def.innerType || !['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly'].includes(def.type)) break;
    current = def.innerType;
  }
  return current;
}

const NUMERIC = /^\s*-?\d+(?:\.\d+)?\s*$/;

/** The known name closest to `given`: the same letters without case and separators first, then the nearest by edit distance. */
export function closestName(given: string, known: readonly string[]): string | null {
  const fold = (s: string) => s.toLowerCase().replace(/[_\-\s]/g, '');
  const folded = fold(given);
  const same = known.find((k) => fold(k) === folded);
  if (same) return same;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(folded, fold(k));
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  // Only a near miss is a suggestion; `xyz` is not a misspelled `repo`.
  return best !== null && bestDistance <= Math.max(2, Math.floor(folded.length / 3)) ? best : null;
}

/**
 * Checks `args` against `schema`'s argument names and converts numeric
 * strings for number arguments. Anything that is not a plain object, or a
 * schema that is not an object, is passed through for zod to judge.
 */
export function prepareArgs(toolName: string, schema: $ZodType, args: unknown): PreparedArgs {
  const shape = objectShape(schema);
  if (!shape || args === null || typeof args !== 'object' || Array.isArray(args)) return { ok: true, args };
  const known = Object.keys(shape);
  const unknown = Object.keys(args).filter((key) => !Object.hasOwn(shape, key));
  if (unknown.length > 0) {
    // One unknown name while one required argument is missing (`path` for `file`): that argument is what was meant.
    const missing = known.filter((key) => !Object.hasOwn(args, key) && (shape[key]._zod as { optin?: string }).optin !== 'optional');
    return { ok: false, message: unknownArgumentsMessage(toolName, unknown, known, unknown.length === 1 && missing.length === 1 ? missing[0] : null) };
  }
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const [key, value] of Object.entries(out)) {
    if (typeof value === 'string' && NUMERIC.test(value) && (unwrapped(shape[key])._zod.def as { type: string }).type === 'number') out[key] = Number(value);
  }
  return { ok: true, args: out };
}

/** `Unknown argument 'filePattern' for search (did you mean 'file_pattern'?); search takes query, file_pattern, repo, budget_tokens.` */
export function unknownArgumentsMessage(toolName: string, unknown: readonly string[], known: readonly string[], fallback: string | null = null): string {
  const named = unknown.slice(0, 5).map((key) => {
    const shown = `'${key.slice(0, 60)}'`;
    const near = closestName(key, known) ?? fallback;
    return near ? `${shown} (did you mean '${near}'?)` : shown;
  });
  const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : '';
  return `Unknown argument${unknown.length === 1 ? '' : 's'} ${named.join(', ')}${more} for ${toolName}; ${toolName} takes ${known.join(', ')}.`;
}
