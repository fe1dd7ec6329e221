/**
 * find_references: where a symbol is called, across files. The index stores,
 * per symbol, the simple names its body calls, and resolves imports to files;
 * it does not type-check. So a caller is found by name and then labelled by
 * how sure the link is: `same file` (caller and definition share a file),
 * `import` (the caller's file imports the definition's file), or `name only`
 * (nothing links them: it may call another symbol of that name). The exact
 * call lines are read from the caller's span in the indexed text.
 */
import { displayPath } from '../scaffold/index.js';
import * as z from '../zod-mini.js';
import type { SymbolRow } from '../index/index.js';
import { symbolsCalling } from '../index/index.js';
import { clipLine, renderBlocks } from './output-budget.js';
import { LineCache } from './source-lines.js';
import { lookupSymbols, parseSymbolQuery } from './symbol-lookup.js';
import { budgetArg, described, filePatternArg, MAX_NAME_CHARS, nonEmptyStringArg, pathFilterOf, repoArg, lazySchema } from './tool-args.js';
import type { ToolDefinition } from './tool-types.js';

/** Callers read at most (a safety bound: a name called from thousands of places is not a useful answer anyway). */
const MAX_CALLERS = 2000;

export type Resolution = 'same file' | 'import' | 'name only';

const RESOLUTION_ORDER: Record<Resolution, number> = { 'same file': 0, import: 1, 'name only': 2 };

/** One call site. */
export interface Reference {
  path: string;
  /** The call's line, or the caller's first line when the call could not be located in its text. */
  line: number;
  /** Qualified name of the calling symbol. */
  caller: string;
  resolution: Resolution;
  text: string;
}

export interface ReferencesData {
  name: string;
  definitions: Array<{ path: string; qualifiedName: string; kind: string; startLine: number; endLine: number }>;
  references: Reference[];
  /** Import statements naming the symbol (or its class) in files importing a definition's file. */
  importers: Array<{ path: string; line: number }>;
  /** References found beyond max_results. */
  notShown: number;
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

/** `(?<![\w$])name\s*[(<]`: a call of `name` (generic calls `name<T>(` included). */
function callPattern(simple: string): RegExp {
  const escaped = simple.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w$])${escaped}\\s*[(<]`);
}

/** `find_references`: callers of a symbol. */
export const findReferencesTool: ToolDefinition<z.infer<ReturnType<typeof referencesInput>>, ReferencesData> = {
  name: 'find_references',
  title: 'Find references (callers)',
  description:
    'Where a function, method or class is called, across files: call lines with the calling symbol, and import lines ' +
    'that name it. Use before changing a signature or to trace who reaches some code. Matching is by name: each call ' +
    "is marked 'same file', 'import' (the caller's file imports the definition's) or 'name only' (may be another " +
    'symbol of that name). Only calls are indexed; for other uses try regex_search.',
  get inputSchema() {
    return referencesInput();
  },
  defaultBudgetTokens: 1500,
  run(args, env) {
    const store = env.repository.index.store;
    const query = parseSymbolQuery(args.name);
    const simple = query.name.split('.').pop()!;
    const pathFilter = pathFilterOf(args.file_pattern);
    const definitions = lookupSymbols(store, args.name, { category: 'any' }).matches;
    const defPaths = new Set(definitions.map((d) => d.path));
    const callers = symbolsCalling(store, simple, MAX_CALLERS).filter((s) => !pathFilter || pathFilter(s.path));
    const lines = new LineCache(store);
    const pattern = callPattern(simple);
    const resolutionOf = (caller: SymbolRow): Resolution => {
      if (defPaths.has(caller.path)) return 'same file';
      if (store.importsOf(caller.path).some((p) => defPaths.has(p))) return 'import';
      return 'name only';
    };
    const references: Reference[] = [];
    for (const caller of callers) {
      const resolution = resolutionOf(caller);
      const text = lines.lines(caller.path) ?? [];
      let found = false;
      for (let n = caller.startLine; n <= Math.min(caller.endLine, text.length); n++) {
        if (!pattern.test(text[n - 1])) continue;
        references.push({ path: caller.path, line: n, caller: caller.qualifiedName, resolution, text: text[n - 1].trim() });
        found = true;
      }
      if (!found) references.push({ path: caller.path, line: caller.startLine, caller: caller.qualifiedName, resolution, text: (text[caller.startLine - 1] ?? '').trim() });
    }
    references.sort((a, b) => RESOLUTION_ORDER[a.resolution] - RESOLUTION_ORDER[b.resolution] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line);
    // Importers: import statements naming the symbol, or its top-level container (`from m import Order` for Order.total).
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
    const limit = args.max_results ?? 50;
    return {
      name: query.name,
      definitions: definitions.map((d) => ({ path: d.path, qualifiedName: d.qualifiedName, kind: d.kind, startLine: d.startLine, endLine: d.endLine })),
      references: references.slice(0, limit),
      importers,
      notShown: Math.max(0, references.length - limit),
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
    if (total === 0) head.push(`No calls of '${data.name}' found in the index.`);
    else {
      const counts = (['same file', 'import', 'name only'] as const)
        .map((r) => [r, data.references.filter((x) => x.resolution === r).length] as const)
        .filter(([, n]) => n > 0)
        .map(([r, n]) => `${n} ${r}`);
      head.push(`${total} call site${total === 1 ? '' : 's'} (${counts.join(', ')}${data.notShown > 0 ? `, ${data.notShown} not shown` : ''}):`);
    }
    const blocks = data.references.map((r) => [`${displayPath(r.path)}:${r.line} in ${r.caller} [${r.resolution}]`, `    ${clipLine(r.text, 200)}`]);
    const footer: string[] = [];
    if (data.importers.length > 0) {
      const list = data.importers.slice(0, 20).map((i) => `${displayPath(i.path)}:${i.line}`);
      footer.push(`Imported by name at: ${list.join(', ')}${data.importers.length > 20 ? ` and ${data.importers.length - 20} more` : ''}`);
    }
    footer.push('Only calls are indexed; uses as a value, a type or in strings are not: regex_search finds those.');
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'call site', plural: 'call sites' }, { alreadyLeftOut: data.notShown, footer });
  },
};
