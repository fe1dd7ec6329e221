/**
 * The agent's final answer: the JSON shape the model is asked for, the
 * tolerant reading of what models actually write (other key names, objects
 * instead of strings, `path::name`, line suffixes, `./` prefixes), and the
 * conversion to LocBench's three ranked levels (files, modules, entities).
 */
import * as z from '../../zod-mini.js';

/** A ranked localization, best first, in LocAgent's conventions. */
export interface RankedAnswer {
  /** `path/to/file.py` */
  files: string[];
  /** `path/to/file.py:Class` or `path/to/file.py:function` (the top-level definition). */
  modules: string[];
  /** `path/to/file.py:Class.method` or `path/to/file.py:function` */
  functions: string[];
}

const KEY_ALIASES: Record<string, 'files' | 'functions' | 'modules'> = {
  files: 'files',
  found_files: 'files',
  file: 'files',
  functions: 'functions',
  found_functions: 'functions',
  found_entities: 'functions',
  entities: 'functions',
  methods: 'functions',
  locations: 'functions',
  modules: 'modules',
  found_modules: 'modules',
  classes: 'modules',
};

/** Maps alternative key names (found_files, entities, …) onto files/functions/modules. */
function canonicalKeys(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const canonical = KEY_ALIASES[key.toLowerCase()];
    if (canonical && out[canonical] === undefined) out[canonical] = typeof item === 'string' ? [item] : item;
  }
  return out;
}

const itemObject = z.looseObject({
  path: z.optional(z.string()),
  file: z.optional(z.string()),
  name: z.optional(z.string()),
  function: z.optional(z.string()),
  symbol: z.optional(z.string()),
  entity: z.optional(z.string()),
});

/** One location: a string, or `{path|file, name|function|symbol|entity}`. */
const answerItem = z.pipe(
  z.union([z.string(), itemObject]),
  z.transform((item: string | z.output<typeof itemObject>) => {
    if (typeof item === 'string') return item;
    const path = item.path ?? item.file ?? '';
    const name = item.name ?? item.function ?? item.symbol ?? item.entity ?? '';
    return path && name ? `${path}:${name}` : path || name;
  }),
);

/**
 * The answer block's JSON: `{"files": [...], "functions": [...]}` (optional
 * `"modules"`). At least one of files/functions must be present; either may
 * be empty. Validated by `parseJsonReply`, which produces the corrective
 * message when it does not match.
 */
export const AnswerSchema = z.preprocess(
  canonicalKeys,
  z
    .object({
      files: z.optional(z.array(answerItem).check(z.maxLength(500))),
      functions: z.optional(z.array(answerItem).check(z.maxLength(500))),
      modules: z.optional(z.array(answerItem).check(z.maxLength(500))),
    })
    .check(
      z.refine((answer) => answer.files !== undefined || answer.functions !== undefined, {
        message: 'the answer needs a "files" list and a "functions" list (e.g. {"files": ["a/b.py"], "functions": ["a/b.py:Class.method"]})',
      }),
    ),
);

/** What {@link AnswerSchema} yields. */
export type AnswerInput = z.output<typeof AnswerSchema>;

/** A repository path as the model wrote it, cleaned: no quotes, backticks, `./` or leading `/`, no line suffix. */
export function normalizePath(raw: string): string {
  let path = raw.trim().replace(/^[`'"]+|[`'"]+$/g, '').trim();
  path = path.replace(/#L\d+(-L?\d+)?$/i, '').replace(/:\d+(-\d+)?$/, '').replace(/\s*\((?:lines?|L)\s*[\d\s,-]+\)$/i, '');
  path = path.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
  return path;
}

/** Extensions accepted for a path without a folder (so `Foo.bar` is not taken for a file). */
const FILE_EXTENSIONS = new Set(
  'py pyi pyx js jsx mjs cjs ts tsx java kt kts scala go rs rb php c h cc cpp cxx hpp hh cs swift m mm sh bash lua pl r jl ex exs erl hs ml fs vue svelte sql json yaml yml toml cfg ini txt md rst html css scss xml gradle'.split(' '),
);

/** True when `path` can be a repository file: it has a folder, or a known source extension. */
function looksLikePath(path: string): boolean {
  if (path === '' || /[\s:#]/.test(path)) return false;
  if (path.includes('/')) return !path.endsWith('/');
  const dot = path.lastIndexOf('.');
  return dot > 0 && FILE_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}

/**
 * Splits `path:Qualified.name` (also `path::name`, `path#name`, `path name`)
 * into its parts. Null when no part looks like a file path (a folder or a
 * known source extension). Call parentheses and `::` inside the name are
 * cleaned; a trailing line number is not a name.
 */
export function splitLocation(raw: string): { path: string; name: string | null } | null {
  const text = raw.trim().replace(/^[`'"]+|[`'"]+$/g, '').trim();
  const whole = normalizePath(text);
  if (looksLikePath(whole)) return { path: whole, name: null };
  for (const separator of text.matchAll(/::|:|#|\s+/g)) {
    const path = normalizePath(text.slice(0, separator.index));
    if (!looksLikePath(path)) continue;
    let name = text.slice(separator.index! + separator[0].length).trim();
    name = name.replace(/\s*\(.*\)\s*$/, '').replace(/::/g, '.').replace(/[:\s]+$/, '');
    if (/^L?\d+([-:]L?\d+)?$/i.test(name)) name = ''; // a line number, not a name
    return { path, name: name || null };
  }
  return null;
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/**
 * The ranked answer from a parsed answer: functions keep their order; a
 * module is the first segment of each function's name (`Class` of
 * `Class.method`) unless modules were given; files are the listed files,
 * then the files of functions and modules not listed yet. Entries without a
 * path are dropped (they cannot be scored); each list is cut to `limit`.
 */
export function toRankedAnswer(input: AnswerInput, limit = 50): RankedAnswer {
  const files: string[] = [];
  const functions: string[] = [];
  for (const raw of input.files ?? []) {
    const location = splitLocation(raw);
    if (location) files.push(location.path);
  }
  for (const raw of input.functions ?? []) {
    const location = splitLocation(raw);
    if (!location) continue;
    if (location.name) functions.push(`${location.path}:${location.name}`);
    else files.push(location.path); // a bare file listed as a function still names a file
  }
  const explicitModules = (input.modules ?? [])
    .map((raw) => splitLocation(raw))
    .filter((l): l is { path: string; name: string } => l !== null && l.name !== null)
    .map((l) => `${l.path}:${l.name.split('.')[0]}`);
  const derivedModules = functions.map((f) => {
    const colon = f.indexOf(':');
    return `${f.slice(0, colon)}:${f.slice(colon + 1).split('.')[0]}`;
  });
  const modules = unique([...explicitModules, ...derivedModules]);
  const allFiles = unique([...files, ...functions.map((f) => f.slice(0, f.indexOf(':'))), ...modules.map((m) => m.slice(0, m.indexOf(':')))]);
  return { files: allFiles.slice(0, limit), modules: modules.slice(0, limit), functions: unique(functions).slice(0, limit) };
}

/**
 * Best-effort locations from free text (an answer that never parsed):
 * every `path.ext` or `path.ext:Name.name` mentioned, in order of mention.
 */
export function salvageLocations(text: string, limit = 50): RankedAnswer {
  const files: string[] = [];
  const functions: string[] = [];
  const pattern = /(?<![\w/.-])((?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,5})(?::{1,2}([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*))?/g;
  for (const match of text.matchAll(pattern)) {
    const path = normalizePath(match[1]!);
    if (!looksLikePath(path)) continue;
    if (match[2]) functions.push(`${path}:${match[2]}`);
    else files.push(path);
  }
  return toRankedAnswer({ files, functions }, limit);
}

/** An empty answer. */
export function emptyAnswer(): RankedAnswer {
  return { files: [], modules: [], functions: [] };
}
