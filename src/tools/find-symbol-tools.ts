/**
 * find_class and find_function: exact-name lookups (see symbol-lookup.ts for
 * the tiers) answering with spans, signatures and, for classes, their members.
 */
import * as z from '../zod-mini.js';
import type { IndexStore, SymbolRow } from '../index/index.js';
import { cleanSignature } from '../scaffold/index.js';
import { displayPath, formatNameList } from '../scaffold/index.js';
import { clipLine, renderBlocks } from './output-budget.js';
import { CATEGORY_KINDS, lookupSymbols, similarSymbols, sortForListing, type MatchTier, type SymbolCategory, type SymbolQuery } from './symbol-lookup.js';
import { budgetArg, described, filePatternArg, MAX_NAME_CHARS, nonEmptyStringArg, pathFilterOf, repoArg, lazySchema, wholeNumberArg } from './tool-args.js';
import type { ToolDefinition } from './tool-types.js';
import { countOf } from '../plural.js';

/** One match as the find tools report it. */
export interface FoundSymbol {
  path: string;
  qualifiedName: string;
  kind: string;
  startLine: number;
  endLine: number;
  signature: string;
  doc: string | null;
  bases: string[];
  /** Classes: direct members (qualified names relative to the class), in source order. */
  members?: Array<{ name: string; kind: string; startLine: number; endLine: number }>;
}

/** What find_class / find_function return. */
export interface FindSymbolData {
  name: string;
  category: 'class' | 'function';
  query: SymbolQuery;
  tier: MatchTier | null;
  /** Every match: those of `tier`, then (after an exact match) those by qualified-name suffix. */
  total: number;
  /** How many of `total` matched by `tier`; the rest matched by qualified-name suffix. */
  tierCount: number;
  /** Library code before tests, shallowest names first (see sortForListing); the first `limit`. */
  matches: FoundSymbol[];
  /** When nothing matched: similar names of the same category. */
  suggestions: Array<{ path: string; qualifiedName: string; kind: string; startLine: number }>;
  /** When nothing matched: exact matches of the other category (a class asked for as a function, …). */
  otherCategory: Array<{ path: string; qualifiedName: string; kind: string; startLine: number }>;
  /** When nothing matched: files the index leaves out (by a rule) that name it, with the rule and what brings them back. */
  leftOut: Array<{ path: string; rule: string | null }>;
  filePattern: string | null;
}

const findInput = lazySchema(() =>
  z.strictObject({
    name: described(
      nonEmptyStringArg('name', MAX_NAME_CHARS),
      'The name: `Cart`, `Cart.checkout`, `checkout`, or `path/to/file.py:Cart.checkout`. Exact, not fuzzy.',
    ),
    file_pattern: filePatternArg(),
    limit: described(z.optional(wholeNumberArg('limit', 1, 100)), 'Most matches shown (default 20).'),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

type FindInput = z.infer<ReturnType<typeof findInput>>;

const MAX_MEMBERS = 15;

function describeTier(tier: MatchTier): string {
  switch (tier) {
    case 'exact':
      return 'exact qualified name';
    case 'suffix':
      return 'qualified-name suffix';
    case 'case-insensitive':
      return 'case-insensitive name';
    case 'module-path':
      return 'module-qualified name';
  }
}

function toFound(store: IndexStore, symbol: SymbolRow, category: 'class' | 'function', fileSymbols: Map<string, SymbolRow[]>): FoundSymbol {
  const found: FoundSymbol = {
    path: symbol.path,
    qualifiedName: symbol.qualifiedName,
    kind: symbol.kind,
    startLine: symbol.startLine,
    endLine: symbol.endLine,
    signature: cleanSignature(symbol.signature),
    doc: symbol.doc,
    bases: [...symbol.bases],
  };
  if (category === 'class') {
    let symbols = fileSymbols.get(symbol.path);
    if (!symbols) fileSymbols.set(symbol.path, (symbols = store.symbolsOf(symbol.path)));
    found.members = symbols
      .filter((s) => s.parent === symbol.qualifiedName)
      .map((s) => ({ name: s.name, kind: s.kind, startLine: s.startLine, endLine: s.endLine }));
  }
  return found;
}

function brief(s: SymbolRow) {
  return { path: s.path, qualifiedName: s.qualifiedName, kind: s.kind, startLine: s.startLine };
}

function makeFindTool(category: 'class' | 'function'): ToolDefinition<FindInput, FindSymbolData> {
  const noun = category === 'class' ? 'class' : 'function';
  const kinds = CATEGORY_KINDS[category].join(', ');
  const other: SymbolCategory = category === 'class' ? 'function' : 'class';
  return {
    name: `find_${category}`,
    title: category === 'class' ? 'Find class' : 'Find function',
    description:
      `Where a ${noun} (${kinds}) is defined, by name: path, line span, signature, doc` +
      (category === 'class' ? ', bases and members' : '') +
      '. Exact matching: qualified name (`Cart.checkout`), then suffix (`checkout`), then case-insensitive; an exact ' +
      'top-level match is followed by the methods of that name; ' +
      '`path/file.py:Name` picks a file. Use when you know the name; otherwise search.',
    get inputSchema() {
      return findInput();
    },
    defaultBudgetTokens: 1500,
    run(args, env) {
      const store = env.repository.index.store;
      const pathFilter = pathFilterOf(args.file_pattern);
      const lookup = lookupSymbols(store, args.name, { category, pathFilter });
      const limit = args.limit ?? 20;
      const fileSymbols = new Map<string, SymbolRow[]>();
      // An exact top-level match comes first; the methods of that name follow instead of being hidden.
      const listed = [...sortForListing(lookup.matches), ...sortForListing(lookup.alsoNamed)];
      const data: FindSymbolData = {
        name: args.name,
        category,
        query: lookup.query,
        tier: lookup.tier,
        total: listed.length,
        tierCount: lookup.matches.length,
        matches: listed.slice(0, limit).map((s) => toFound(store, s, category, fileSymbols)),
        suggestions: [],
        otherCategory: [],
        leftOut: [],
        filePattern: pathFilter ? args.file_pattern! : null,
      };
      if (lookup.matches.length === 0) {
        data.suggestions = similarSymbols(store, lookup.query.name, category, 5, pathFilter).map(brief);
        const elsewhere = lookupSymbols(store, args.name, { category: other, pathFilter });
        if (elsewhere.tier === 'exact' || elsewhere.tier === 'suffix') data.otherCategory = elsewhere.matches.slice(0, 5).map(brief);
        // Only on a miss (a walk of the left-out files): the name may live where the rules keep the index from looking.
        if (data.otherCategory.length === 0) data.leftOut = env.repository.index.leftOutMentions(lookup.query.name);
      }
      return data;
    },
    render(data, env) {
      const where = [data.filePattern ? `file_pattern '${data.filePattern}'` : null, data.query.pathHint ? `file '${data.query.pathHint}'` : null]
        .filter(Boolean)
        .join(' and ');
      if (data.total === 0) {
        const lines = [`No ${noun} named '${data.query.name}'${where ? ` in ${where}` : ''}.`];
        if (data.otherCategory.length > 0) {
          const cli = env.context.surface === 'cli';
          const tool = other === 'class' ? (cli ? 'reponav find class' : 'find_class') : cli ? 'reponav find function' : 'find_function';
          lines.push(`It exists as a ${other === 'class' ? 'class-like type' : 'function/method'} (use ${tool}): ${data.otherCategory.map((s) => `${displayPath(s.path)}:${s.startLine} ${s.qualifiedName} (${s.kind})`).join('; ')}`);
        }
        for (const file of data.leftOut) {
          lines.push(`${displayPath(file.path)} names it but is not indexed${file.rule ? `: it is left out by ${file.rule}` : ''}.`);
        }
        if (data.suggestions.length > 0) {
          lines.push(`Similar ${noun} names: ${data.suggestions.map((s) => `${s.qualifiedName} (${displayPath(s.path)}:${s.startLine})`).join(', ')}`);
        } else if (data.otherCategory.length === 0 && data.leftOut.length === 0) {
          lines.push(
            env.context.surface === 'cli'
              ? 'Try `reponav search` with a description, or `reponav view --symbol` with a qualified name.'
              : 'Try search with a description, or find_code_snippet with a piece of its code.',
          );
        }
        return lines.join('\n');
      }
      const plural = data.total === 1 ? noun : category === 'class' ? 'classes' : 'functions';
      const also = data.total - data.tierCount;
      const scope = `${data.total} ${plural} matching '${data.query.name}'${where ? ` in ${where}` : ''}`;
      const head = [
        also > 0
          ? `${scope}: ${data.tierCount} by ${describeTier(data.tier!)}, then ${also} by qualified-name suffix (library code before tests):`
          : `${data.total} ${plural} matching '${data.query.name}' by ${describeTier(data.tier!)}${where ? ` in ${where}` : ''}:`,
      ];
      const blocks = data.matches.map((m) => {
        const lines = [`${displayPath(m.path)}:${m.startLine}-${m.endLine} ${m.qualifiedName} (${m.kind})`];
        lines.push(`    ${clipLine(m.signature || `${m.kind} ${m.qualifiedName}`, 300)}`);
        if (m.doc) lines.push(`    — ${clipLine(m.doc.trim(), 160)}`);
        if (m.bases.length > 0) lines.push(`    bases: ${formatNameList(m.bases, 8)}`);
        if (m.members && m.members.length > 0) {
          lines.push(`    members: ${formatNameList(m.members.map((x) => `${x.name} [L${x.startLine}-${x.endLine}]`), MAX_MEMBERS)}`);
        }
        return lines;
      });
      const leftOut = data.total - data.matches.length;
      const footer = leftOut > 0 ? [`(+${countOf(leftOut, 'more match', 'more matches')} not shown; raise limit or narrow with file_pattern)`] : [];
      return renderBlocks(head, blocks, env.budgetTokens, { singular: 'match', plural: 'matches' }, { alreadyLeftOut: leftOut, footer });
    },
  };
}

/** `find_class`: classes, interfaces, structs, enums, traits and modules by exact name. */
export const findClassTool = makeFindTool('class');

/** `find_function`: functions and methods by exact name. */
export const findFunctionTool = makeFindTool('function');
