/**
 * Exact-name symbol lookup, shared by find_class, find_function and view_code's
 * `symbol` argument. Names are matched in tiers and the first non-empty tier
 * wins: the exact qualified name (`Cart.checkout`), then a qualified-name
 * suffix (`checkout` finds `Cart.checkout`, `Inner.run` finds `Outer.Inner.run`),
 * then both case-insensitively, then a module-qualified name (`shop.models.Order`
 * finds `Order` in `shop/models.py`). No fuzzy matching: near misses are offered
 * separately as suggestions, never as results.
 */
import { ReponavError } from '../errors.js';
import { symbolsNamed, symbolsWithNameContaining, type IndexStore, type SymbolRow } from '../index/index.js';
import type { SymbolKind } from '../parse/index.js';
import { isTestPath } from '../retrieve/index.js';
import { MAX_NAME_CHARS } from './tool-args.js';

/** Which kinds a lookup considers. */
export type SymbolCategory = 'class' | 'function' | 'any';

export const CATEGORY_KINDS: Record<SymbolCategory, readonly SymbolKind[]> = {
  class: ['class', 'interface', 'struct', 'enum', 'trait', 'module', 'type'],
  function: ['function', 'method'],
  any: ['class', 'interface', 'struct', 'enum', 'trait', 'module', 'type', 'function', 'method'],
};

export type MatchTier = 'exact' | 'suffix' | 'case-insensitive' | 'module-path';

/** A name as written by a user or model, normalized. */
export interface SymbolQuery {
  /** Dotted qualified name or suffix, e.g. `Cart.checkout`. */
  name: string;
  /** A file named before a `:` (`shop/service.py:OrderService.checkout`), or null. */
  pathHint: string | null;
}

/**
 * Normalizes `Class::method`, `Class#method`, `pkg/file.py:Class.method`,
 * `checkout()` and surrounding backticks into a dotted name and an optional
 * path hint. Throws BAD_INPUT for an empty or oversized name.
 */
export function parseSymbolQuery(raw: string): SymbolQuery {
  if (raw.length > MAX_NAME_CHARS) throw new ReponavError('BAD_INPUT', `name is limited to ${MAX_NAME_CHARS} characters.`);
  let text = raw.trim().replace(/^`+|`+$/g, '').trim();
  text = text.replace(/\(.*$/s, '').trim();
  text = text.replace(/::|#|->/g, '.');
  let pathHint: string | null = null;
  const colon = text.lastIndexOf(':');
  if (colon > 0) {
    const left = text.slice(0, colon).trim();
    if (/[/.]/.test(left)) pathHint = left.replace(/\\/g, '/').replace(/^\.\//, '');
    text = text.slice(colon + 1);
  }
  const name = text
    .split('.')
    .map((part) => part.trim())
    .filter(Boolean)
    .join('.');
  if (!name) throw new ReponavError('BAD_INPUT', `'${raw.slice(0, 80)}' is not a symbol name; give a name like Cart or Cart.checkout.`);
  return { name, pathHint };
}

/** What to look up. */
export interface SymbolLookupOptions {
  category: SymbolCategory;
  /** Keep only symbols in files passing this (a file_pattern). */
  pathFilter?: (path: string) => boolean;
  /** Candidate rows read at most (a safety bound; names are selective). */
  maxCandidates?: number;
}

/** The outcome of a lookup: matches of the first non-empty tier, by path then line. */
export interface SymbolLookupResult {
  query: SymbolQuery;
  tier: MatchTier | null;
  matches: SymbolRow[];
  /**
   * With an `exact` tier: the symbols that end with the name as a qualified
   * suffix (`YoutubeDL.report_warning` beside a top-level `report_warning`),
   * which the exact match would otherwise hide; by path then line. Empty otherwise.
   */
  alsoNamed: SymbolRow[];
}

/** Runs the tiered lookup over one index. */
export function lookupSymbols(store: IndexStore, raw: string, options: SymbolLookupOptions): SymbolLookupResult {
  const query = parseSymbolQuery(raw);
  const last = query.name.split('.').pop()!;
  const kinds = CATEGORY_KINDS[options.category];
  const candidates = symbolsNamed(store, last, kinds, options.maxCandidates ?? 5000)
    .filter((s) => (!options.pathFilter || options.pathFilter(s.path)) && pathHintMatches(query.pathHint, s.path));
  const wanted = query.name;
  const lower = wanted.toLowerCase();
  const tiers: Array<[MatchTier, (s: SymbolRow) => boolean]> = [
    ['exact', (s) => s.qualifiedName === wanted],
    ['suffix', (s) => s.qualifiedName.endsWith('.' + wanted)],
    ['case-insensitive', (s) => s.qualifiedName.toLowerCase() === lower || s.qualifiedName.toLowerCase().endsWith('.' + lower)],
    ['module-path', (s) => moduleQualifiedMatch(wanted, s)],
  ];
  for (const [tier, test] of tiers) {
    const matches = candidates.filter(test);
    if (matches.length === 0) continue;
    const alsoNamed = tier === 'exact' ? sortSymbols(candidates.filter(tiers[1][1])) : [];
    return { query, tier, matches: sortSymbols(matches), alsoNamed };
  }
  return { query, tier: null, matches: [], alsoNamed: [] };
}

/**
 * Up to `limit` symbols of the category whose simple name contains the last
 * segment of `name` (case-insensitive), shortest names first: suggestions for
 * a lookup that found nothing.
 */
export function similarSymbols(store: IndexStore, name: string, category: SymbolCategory, limit = 5, pathFilter?: (path: string) => boolean): SymbolRow[] {
  const last = name.split('.').pop()!.toLowerCase();
  if (last.length < 3) return [];
  const kinds = CATEGORY_KINDS[category];
  const rows = symbolsWithNameContaining(store, last, kinds, 500)
    .filter((s) => !pathFilter || pathFilter(s.path));
  const seen = new Set<string>();
  const unique = rows.filter((s) => {
    const key = `${s.path}:${s.qualifiedName}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => a.name.length - b.name.length || compare(a.qualifiedName, b.qualifiedName) || compare(a.path, b.path));
  return unique.slice(0, limit);
}

/** `pkg.mod.Class.method` names `Class.method` in a file whose path without extension ends with `pkg/mod`. */
function moduleQualifiedMatch(wanted: string, symbol: SymbolRow): boolean {
  if (!wanted.endsWith('.' + symbol.qualifiedName)) return false;
  const modulePath = wanted.slice(0, -symbol.qualifiedName.length - 1).replace(/\./g, '/');
  const stem = symbol.path.replace(/\.[^./]+$/, '').replace(/\/(__init__|index|mod)$/, '');
  return stem === modulePath || stem.endsWith('/' + modulePath);
}

/** True when a path hint is absent or names this path (equal, or a `/`-aligned suffix). */
export function pathHintMatches(hint: string | null, path: string): boolean {
  return hint === null || path === hint || path.endsWith('/' + hint);
}

/**
 * The order a listing shows symbols in: library code before tests, then the
 * shallowest qualified names (methods before functions nested in them), then
 * by path and line.
 */
export function sortForListing(symbols: readonly SymbolRow[]): SymbolRow[] {
  const depth = (s: SymbolRow) => s.qualifiedName.split('.').length;
  return [...symbols].sort(
    (a, b) => Number(isTestPath(a.path)) - Number(isTestPath(b.path)) || depth(a) - depth(b) || compare(a.path, b.path) || a.startLine - b.startLine,
  );
}

/** By path, then start line, then qualified name. */
export function sortSymbols(symbols: readonly SymbolRow[]): SymbolRow[] {
  return [...symbols].sort((a, b) => compare(a.path, b.path) || a.startLine - b.startLine || compare(a.qualifiedName, b.qualifiedName));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
