/**
 * find_references: where a symbol is called, across files. The index stores,
 * per symbol, the simple names its body calls, and resolves imports to files;
 * it does not type-check. Callers are found by name, then each caller's file
 * is parsed again (call-sites.ts) so that only real calls count — never the
 * definition itself, a comment or a string — and each call is labelled by how
 * sure its link is: `same file` (caller and definition share a file),
 * `import` (the caller's file imports the definition's file) or `name only`
 * (nothing links them). A call through a receiver (`x.name(…)`) is a
 * reference only when the receiver resolves to the definition
 * (reference-receivers.ts); otherwise it is listed apart as `other receiver`.
 * Import statements naming the symbol are their own kind.
 */
import { displayPath } from '../scaffold/index.js';
import * as z from '../zod-mini.js';
import type { IndexStore, SymbolRow } from '../index/index.js';
import { symbolsCalling } from '../index/index.js';
import { clipLine, renderBlocks } from './output-budget.js';
import { ReceiverResolver } from './reference-receivers.js';
import { LineCache } from './source-lines.js';
import { lookupSymbols, parseSymbolQuery } from './symbol-lookup.js';
import { budgetArg, described, filePatternArg, MAX_NAME_CHARS, nonEmptyStringArg, pathFilterOf, repoArg, lazySchema } from './tool-args.js';
import type { ToolDefinition } from './tool-types.js';

/** Callers read at most (a safety bound: a name called from thousands of places is not a useful answer anyway). */
const MAX_CALLERS = 2000;

/** How a call site links to the definition; `other receiver` is a call of the same name on something else. */
export type Resolution = 'same file' | 'import' | 'name only' | 'other receiver';

const RESOLUTION_ORDER: Record<Resolution, number> = { 'same file': 0, import: 1, 'name only': 2, 'other receiver': 3 };

/** One call site. */
export interface Reference {
  path: string;
  /** The call's line. */
  line: number;
  /** Qualified name of the calling symbol. */
  caller: string;
  resolution: Resolution;
  /** The receiver as written (`self.calculator`), or null for a plain call. */
  receiver: string | null;
  text: string;
}

export interface ReferencesData {
  name: string;
  definitions: Array<{ path: string; qualifiedName: string; kind: string; startLine: number; endLine: number }>;
  /** Calls that reach a definition (or may: `name only`), most certain first. */
  references: Reference[];
  /** Calls of the same name through a receiver that does not resolve to any definition. */
  otherReceivers: Reference[];
  /** Import statements naming the symbol (or its class) in files importing a definition's file. */
  importers: Array<{ path: string; line: number }>;
  /** References found beyond max_results. */
  notShown: number;
  /** Calls of the same name on other receivers beyond max_results. */
  otherNotShown: number;
}

const referencesInput = lazySchema(() =>
  z.strictObject({
    name: described(
      nonEmptyStringArg('name', MAX_NAME_CHARS),
      'Symbol name: `total`, `Order.total`, or `shop/models.py:Order.total` to pick one definition.',
    ),
    file_pattern: filePatternArg(),
    max_results: described(z.optional(z.number().check(z.int(), z.gte(1), z.lte(500))), 'Call sites to show (default 50).'),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

/** `find_references`: callers of a symbol. */
export const findReferencesTool: ToolDefinition<z.infer<ReturnType<typeof referencesInput>>, ReferencesData> = {
  name: 'find_references',
  title: 'Find references (callers)',
  description:
    'Where a function, method or class is called, across files: call lines with the calling symbol, then calls of the ' +
    'same name on other receivers, then import lines naming it. Use before changing a signature or to trace who reaches ' +
    "some code. Each call is marked 'same file', 'import' (the caller's file imports the definition's) or 'name only' " +
    '(nothing links them). Definitions, comments and strings never count; only calls do: for other uses try regex_search.',
  get inputSchema() {
    return referencesInput();
  },
  defaultBudgetTokens: 1500,
  async run(args, env) {
    const store = env.repository.index.store;
    const query = parseSymbolQuery(args.name);
    const simple = query.name.split('.').pop()!;
    const pathFilter = pathFilterOf(args.file_pattern);
    const definitions = lookupSymbols(store, args.name, { category: 'any' }).matches;
    const defPaths = new Set(definitions.map((d) => d.path));
    const callers = symbolsCalling(store, simple, MAX_CALLERS).filter((s) => !pathFilter || pathFilter(s.path));
    const receivers = new ReceiverResolver(store, definitions, simple);
    const fileLink = (caller: SymbolRow): Resolution => (store.importsOf(caller.path).some((p) => defPaths.has(p)) ? 'import' : 'name only');
    const all = await callSites(store, callers, simple);
    const references: Reference[] = [];
    const otherReceivers: Reference[] = [];
    for (const site of all) {
      // With no definition indexed (a library's name), a plain call may be it; a call through a receiver cannot be told.
      const reach = definitions.length > 0 ? receivers.reaches(site.reference.receiver, site.callerRow) : site.reference.receiver === null ? 'other file' : null;
      if (reach === null) otherReceivers.push({ ...site.reference, resolution: 'other receiver' });
      else references.push({ ...site.reference, resolution: reach === 'same file' ? 'same file' : fileLink(site.callerRow) });
    }
    const byCertainty = (a: Reference, b: Reference) =>
      RESOLUTION_ORDER[a.resolution] - RESOLUTION_ORDER[b.resolution] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line;
    references.sort(byCertainty);
    otherReceivers.sort(byCertainty);
    const limit = args.max_results ?? 50;
    const otherLimit = Math.max(0, limit - references.length);
    return {
      name: query.name,
      definitions: definitions.map((d) => ({ path: d.path, qualifiedName: d.qualifiedName, kind: d.kind, startLine: d.startLine, endLine: d.endLine })),
      references: references.slice(0, limit),
      otherReceivers: otherReceivers.slice(0, otherLimit),
      importers: importersOf(store, simple, definitions, defPaths, pathFilter),
      notShown: Math.max(0, references.length - limit),
      otherNotShown: Math.max(0, otherReceivers.length - otherLimit),
    };
  },
  render(data, env) {
    const defs = data.definitions;
    const head: string[] = [];
    if (defs.length === 0) head.push(`'${data.name}' is not defined in the indexed files (a library or builtin?); its calls match by name only.`);
    else {
      const shown = defs.slice(0, 5).map((d) => `${displayPath(d.path)}:${d.startLine}-${d.endLine} ${d.qualifiedName} (${d.kind})`);
      head.push(`'${data.name}' is defined at ${shown.join('; ')}${defs.length > 5 ? ` and ${defs.length - 5} more` : ''}.`);
    }
    const total = data.references.length + data.notShown;
    const others = data.otherReceivers.length + data.otherNotShown;
    if (total === 0) head.push(`No calls of '${data.name}' found in the index.`);
    else {
      const counts = (['same file', 'import', 'name only'] as const)
        .map((r) => [r, data.references.filter((x) => x.resolution === r).length] as const)
        .filter(([, n]) => n > 0)
        .map(([r, n]) => `${n} ${r}`);
      head.push(`${total} call site${total === 1 ? '' : 's'} (${counts.join(', ')}${data.notShown > 0 ? `, ${data.notShown} not shown` : ''}):`);
    }
    const site = (r: Reference) => [
      `${displayPath(r.path)}:${r.line} in ${r.caller} [${r.resolution !== 'other receiver' ? r.resolution : r.receiver === null ? 'plain call outside the class' : `other receiver: ${clipLine(r.receiver, 60)}`}]`,
      `    ${clipLine(r.text, 200)}`,
    ];
    const blocks = data.references.map(site);
    const counts = blocks.map(() => 1);
    if (others > 0) {
      blocks.push([`Same name, other receiver (${others}${data.otherNotShown > 0 ? `, ${data.otherNotShown} not shown` : ''}; not resolved to this definition):`]);
      counts.push(0);
      for (const r of data.otherReceivers) {
        blocks.push(site(r));
        counts.push(1);
      }
    }
    const footer: string[] = [];
    if (data.importers.length > 0) {
      const list = data.importers.slice(0, 20).map((i) => `${displayPath(i.path)}:${i.line}`);
      footer.push(`Imports of the name (${data.importers.length}): ${list.join(', ')}${data.importers.length > 20 ? ` and ${data.importers.length - 20} more` : ''}`);
    }
    footer.push(PRECISION_NOTE);
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'call site', plural: 'call sites' }, {
      alreadyLeftOut: data.notShown + data.otherNotShown,
      footer,
      counts,
    });
  },
};

/** What a listed call site is, in one line under every answer. */
const PRECISION_NOTE =
  'Only calls count (never the definition, comments or strings); a call through a receiver counts when the receiver is self/this, ' +
  'the class, an imported module or a variable declared with the class, and a plain call only where it can mean the method. Uses as a value or a type: regex_search.';

/** `(?<![\w$])name\s*[(<]`: a call of `name` on a line, for files whose language is not parsed. */
function callPattern(simple: string): RegExp {
  const escaped = simple.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w$])${escaped}\\s*[(<]`);
}

/** A call site before it is labelled, with the innermost calling symbol. */
interface FoundSite {
  reference: Omit<Reference, 'resolution'>;
  callerRow: SymbolRow;
}

/**
 * Every call of `simple` inside `callers`' spans, each owned by the innermost
 * caller around it, from each caller file's syntax tree (a line scan for a file
 * whose language is not parsed).
 */
async function callSites(store: IndexStore, callers: readonly SymbolRow[], simple: string): Promise<FoundSite[]> {
  // eslint-disable-next-line entry-points/no-restricted-paths -- the parser's own entry: tree-sitter loads only when references are asked for
  const { callSitesOf } = await import('../parse/call-sites.js');
  const lines = new LineCache(store);
  const byFile = new Map<string, SymbolRow[]>();
  for (const caller of callers) byFile.set(caller.path, [...(byFile.get(caller.path) ?? []), caller]);
  const found: FoundSite[] = [];
  for (const [path, rows] of byFile) {
    const text = store.fileText(path) ?? '';
    const fileLines = lines.lines(path) ?? [];
    const pattern = callPattern(simple);
    const sites =
      (await callSitesOf(path, text, simple)) ??
      fileLines.flatMap((line, i) => (pattern.test(line) ? [{ line: i + 1, receiver: null }] : []));
    for (const site of sites) {
      const owner = innermost(rows, site.line);
      if (!owner) continue; // a call outside every caller's span (module level): the index records none there
      found.push({
        reference: { path, line: site.line, caller: owner.qualifiedName, receiver: site.receiver, text: (fileLines[site.line - 1] ?? '').trim() },
        callerRow: owner,
      });
    }
  }
  return found;
}

/** The smallest span among `rows` that holds `line`. */
function innermost(rows: readonly SymbolRow[], line: number): SymbolRow | undefined {
  let best: SymbolRow | undefined;
  for (const row of rows) {
    if (row.startLine > line || row.endLine < line) continue;
    if (!best || row.endLine - row.startLine < best.endLine - best.startLine) best = row;
  }
  return best;
}

/** Import statements naming the symbol, or its top-level container (`from m import Order` for Order.total), in files importing a definition's file. */
function importersOf(
  store: IndexStore,
  simple: string,
  definitions: readonly SymbolRow[],
  defPaths: ReadonlySet<string>,
  pathFilter: ((path: string) => boolean) | undefined,
): ReferencesData['importers'] {
  const names = new Set([simple, ...definitions.map((d) => d.qualifiedName.split('.')[0])]);
  const importers: ReferencesData['importers'] = [];
  for (const defPath of [...defPaths].sort()) {
    for (const importer of store.importedBy(defPath)) {
      if (pathFilter && !pathFilter(importer)) continue;
      for (const record of store.importsOfFile(importer)) {
        if (record.names.some((n) => names.has(n.split(/\s+as\s+/)[0].trim()))) importers.push({ path: importer, line: record.line });
      }
    }
  }
  return importers;
}
