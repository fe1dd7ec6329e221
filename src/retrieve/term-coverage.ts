import { codeTokens, termStatistics, type IndexStore } from '../index/index.js';
import { TYPE_KINDS } from '../parse/index.js';
import { outermostFunction } from './function-neighbours.js';
import type { FileCandidate, RankedSymbol } from './retrieval-types.js';

/**
 * Within-file term coverage (issue 14's performance misses): a long issue text
 * about a refactor names many of the words of each function it touches, while
 * BM25 over chunks ranks one or two of them and fills the rest of the top 5
 * from other files. Coverage ranks the functions of the best files by the
 * summed weight × idf of the distinct query terms their own text holds (no
 * length normalisation: a function is not penalised for being long).
 */
export interface TermCoverageOptions {
  /** Boost, as a fraction of the best hit's score, of the best-covered function; others get their share of it. 0 turns it off. */
  weight: number;
  /** How many files of the fused file list have their functions scored. */
  files: number;
  /** `share`: each file's boost × its score / the first file's; `flat`: every file alike. */
  mode: 'flat' | 'share';
  /** Only a query with at least this many terms (an issue text, not a search phrase). */
  minTerms: number;
  /** Only when the function top 5 spans at least this many files (the ranking has not settled on one file). */
  minSpread: number;
  /** Coverage shares (of the file's best-covered function) are raised to this power: above 1, only the best-covered functions gain much. */
  exponent: number;
  /** `score`: boost × the coverage share; `rank`: boost × (1 − (r − 1) / depth) for the file's r-th best-covered function, r ≤ depth. */
  shape: 'score' | 'rank';
  /** With `rank`, how many of each file's best-covered functions gain. */
  depth: number;
  /** Term weights × chunk idf (true) or the query's term weights alone. */
  idf: boolean;
  /** Functions of the covered files without a hit join the ranking (true), or only ranked functions gain. */
  candidates: boolean;
  /** A covered file gains only while fewer than this many of its functions are in the top 5 (5: always). */
  maxInTop: number;
}

/** Off (weight 0): measured as a setting, see docs/retrieval.md. */
export const DEFAULT_TERM_COVERAGE: TermCoverageOptions = { weight: 0, files: 1, mode: 'flat', minTerms: 16, minSpread: 2, exponent: 1, shape: 'score', depth: 5, idf: true, candidates: true, maxInTop: 5 };

/**
 * Adds the coverage boost to `functionScores` in place (functions of the
 * covered files without a hit join as candidates at their file's share,
 * `baseOf`). Keys are `path:qualifiedName`.
 */
export function applyTermCoverage(
  store: IndexStore,
  functionScores: Map<string, RankedSymbol>,
  files: readonly FileCandidate[],
  terms: readonly { token: string; weight: number }[],
  best: number,
  baseOf: (path: string) => number,
  options: TermCoverageOptions,
): void {
  if (!(options.weight > 0) || files.length === 0 || terms.length < options.minTerms) return;
  const top = [...functionScores.values()].sort((a, b) => b.score - a.score).slice(0, 5);
  if (new Set(top.map((f) => f.path)).size < options.minSpread) return;
  const weights = termWeights(store, terms, options.idf);
  const covered = files.slice(0, options.files);
  const first = covered[0]!.score || 1;
  for (const file of covered) {
    if (top.filter((f) => f.path === file.path).length >= options.maxInTop) continue;
    const share = options.mode === 'share' ? Math.max(0, file.score) / first : 1;
    const units = functionCoverage(store, file.path, weights).sort((a, b) => b.coverage - a.coverage);
    const most = units[0]?.coverage ?? 0;
    if (!(most > 0)) continue;
    units.forEach((unit, r) => {
      const part = options.shape === 'rank' ? Math.max(0, 1 - r / options.depth) : (unit.coverage / most) ** options.exponent;
      if (!(part > 0) || !(unit.coverage > 0)) return;
      const key = `${unit.path}:${unit.qualifiedName}`;
      if (!options.candidates && !functionScores.has(key)) return;
      const previous = functionScores.get(key)?.score ?? baseOf(unit.path);
      functionScores.set(key, { path: unit.path, qualifiedName: unit.qualifiedName, score: previous + options.weight * best * share * part });
    });
  }
}

/** Each distinct term's weight (capped at 4, as BM25 repeats it) × its chunk idf, ln(1 + (N − n + 0.5) / (n + 0.5)). */
function termWeights(store: IndexStore, terms: readonly { token: string; weight: number }[], idf: boolean): Map<string, number> {
  const stats = termStatistics(store, terms.map((t) => t.token));
  const out = new Map<string, number>();
  for (const { token, weight } of terms) {
    const n = stats.documents.get(token) ?? 0;
    if (n === 0 || out.has(token) || !(weight > 0)) continue;
    out.set(token, Math.min(4, weight) * (idf ? Math.log(1 + (stats.rows - n + 0.5) / (n + 0.5)) : 1));
  }
  return out;
}

/** The file's outermost functions (methods included) with the summed weight of the distinct query terms in their text. */
function functionCoverage(store: IndexStore, path: string, weights: Map<string, number>): { path: string; qualifiedName: string; coverage: number }[] {
  const text = store.fileText(path);
  if (text === null) return [];
  const lines = text.split('\n');
  const symbols = store.symbolsOf(path);
  const byName = new Map<string, (typeof symbols)[number]>();
  for (const s of symbols) if (!byName.has(s.qualifiedName)) byName.set(s.qualifiedName, s);
  const out: { path: string; qualifiedName: string; coverage: number }[] = [];
  for (const s of symbols) {
    if (TYPE_KINDS.has(s.kind) || outermostFunction(s, byName) !== s) continue;
    let coverage = 0;
    for (const token of new Set(codeTokens(lines.slice(s.startLine - 1, s.endLine).join('\n')))) coverage += weights.get(token) ?? 0;
    out.push({ path, qualifiedName: s.qualifiedName, coverage });
  }
  return out;
}
