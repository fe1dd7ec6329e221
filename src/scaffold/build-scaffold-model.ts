/**
 * Stage 2 of RepoNav as data: from the ranked files and hits to the structured
 * scaffold (ranked files, and for the top ones anchors, glimpse and targets).
 * All selection happens here, none in the renderers, so the text form, the JSON
 * form and every ablation show the same choices.
 */
import type { CodeSymbol } from '../parse/index.js';
import { mergeWithDocs, type RetrievalResult } from '../retrieve/index.js';
import { compareStrings, countEvidence, fileHits, sortFiles, symbolHitScores } from './hit-evidence.js';
import { normalizeQueryTokens } from './query-token-match.js';
import { sameFileCalls } from './same-file-calls.js';
import type {
  ResolvedScaffoldOptions,
  ScaffoldAnchor,
  ScaffoldDoc,
  ScaffoldFile,
  ScaffoldFileBlock,
  ScaffoldModel,
  ScaffoldOptions,
  ScaffoldSymbolRef,
} from './scaffold-types.js';
import { selectAnchors } from './select-anchors.js';
import { selectGlimpse } from './select-glimpse.js';
import { selectTargets } from './select-targets.js';
import { directoryOf } from './text-format.js';
import { DEFAULT_BUDGET_TOKENS } from '../budget/index.js';

/** The paper's settings: parse 5, expand 3, ≤2 anchors, ≤3 glimpse (5 for an anchorless top file), ≤4 targets, 1,500 tokens. */
export const DEFAULT_SCAFFOLD_OPTIONS: Readonly<ResolvedScaffoldOptions> = Object.freeze({
  parseTop: 5,
  expandTop: 3,
  maxAnchors: 2,
  maxGlimpse: 3,
  maxGlimpseTopNoAnchor: 5,
  maxTargets: 4,
  maxNeighbours: 5,
  maxImportedBy: 2,
  maxDocs: 3,
  budgetTokens: DEFAULT_BUDGET_TOKENS,
  anchors: true,
  glimpse: true,
  targets: true,
  cue: true,
  importsBy: true,
});

/** Applies defaults to every option left undefined. */
export function resolveScaffoldOptions(options: ScaffoldOptions = {}): ResolvedScaffoldOptions {
  const resolved = { ...DEFAULT_SCAFFOLD_OPTIONS };
  for (const key of Object.keys(resolved) as Array<keyof ResolvedScaffoldOptions>) {
    const value = options[key];
    if (value !== undefined) (resolved as Record<string, unknown>)[key] = value;
  }
  return resolved;
}

/**
 * Builds the scaffold model. Files are the result's files sorted by score
 * (ties by path), the first `parseTop` kept; the first `expandTop` of those are
 * expanded with the ScaffoldFile found in `files` under the same path (a missing
 * entry yields a file with empty blocks and `parsed: false`). The glimpse of the
 * rank-1 file widens to `maxGlimpseTopNoAnchor` when that file has no anchor,
 * because then the agent has nothing else to start from in the most likely file.
 * Block switches in `options` are carried into the model but do not alter it.
 */
export function buildScaffoldModel(
  result: RetrievalResult,
  files: ReadonlyMap<string, ScaffoldFile>,
  options: ScaffoldOptions = {},
): ScaffoldModel {
  const resolved = resolveScaffoldOptions(options);
  const queryTokens = normalizeQueryTokens(result.queryTokens);
  const ranked = sortFiles(result.files);
  const rankOf = new Map<string, number>();
  ranked.forEach((file, index) => {
    if (!rankOf.has(file.path)) rankOf.set(file.path, index + 1);
  });

  const blocks = ranked.slice(0, Math.max(0, resolved.parseTop)).map((candidate, index): ScaffoldFileBlock => {
    const rank = index + 1;
    const scaffoldFile = files.get(candidate.path);
    const block: ScaffoldFileBlock = {
      rank,
      path: candidate.path,
      directory: directoryOf(candidate.path),
      score: candidate.score,
      evidence: countEvidence(result, candidate.path),
      expanded: rank <= resolved.expandTop,
      parsed: scaffoldFile !== undefined,
      importedBy: sortImporters(scaffoldFile?.importedBy ?? [], candidate.path, rankOf),
      anchors: [],
      glimpse: [],
      targets: [],
    };
    if (!block.expanded || !scaffoldFile) return block;

    const symbols = scaffoldFile.symbols;
    const hitScores = symbolHitScores(fileHits(result, candidate, candidate.path));
    const anchors = selectAnchors(symbols, queryTokens, hitScores, resolved.maxAnchors);
    // Only the anchors show call neighbours: the rest of the file's calls are not resolved.
    const only = new Set(anchors.map((a) => a.symbol.qualifiedName));
    const graph = sameFileCalls(symbols, { language: scaffoldFile.language ?? '', text: scaffoldFile.text ?? null }, only);
    block.anchors = anchors.map(
      (a): ScaffoldAnchor => ({
        ...refOf(a.symbol, a.hitScore),
        matchedTokens: a.matchedTokens,
        invokes: [...(graph.get(a.symbol.qualifiedName)?.invokes ?? [])],
        invokedBy: [...(graph.get(a.symbol.qualifiedName)?.invokedBy ?? [])],
      }),
    );
    const glimpseLimit = rank === 1 && block.anchors.length === 0 ? resolved.maxGlimpseTopNoAnchor : resolved.maxGlimpse;
    const anchorNames = new Set(block.anchors.map((a) => a.qualifiedName));
    block.glimpse = selectGlimpse(symbols, anchorNames, queryTokens, hitScores, glimpseLimit).map((g) =>
      refOf(g.symbol, g.hitScore),
    );
    const firstByName = new Map<string, CodeSymbol>();
    for (const symbol of symbols) if (!firstByName.has(symbol.qualifiedName)) firstByName.set(symbol.qualifiedName, symbol);
    const lookup = (name: string) => {
      const symbol = firstByName.get(name);
      return symbol ? refOf(symbol, hitScores.get(name) ?? null) : undefined;
    };
    block.targets = selectTargets(block.anchors, block.glimpse, lookup, resolved.maxTargets);
    return block;
  });

  const docs = (result.docs ?? []).slice(0, Math.max(0, resolved.maxDocs)).map((d, i) => ({ ...d, rank: i + 1 }));
  const docPlacement = result.docPlacement ?? 'below';
  const priority = mergeWithDocs(blocks, docs, docPlacement).map((item) => ('code' in item ? `file:${item.code.rank}` : `doc:${(item.doc as ScaffoldDoc).rank}`));
  return { query: result.query, queryTokens, totalFiles: ranked.length, files: blocks, docs, docPlacement, priority, options: resolved };
}

function refOf(symbol: CodeSymbol, hitScore: number | null): ScaffoldSymbolRef {
  return {
    qualifiedName: symbol.qualifiedName,
    kind: symbol.kind,
    startLine: symbol.startLine,
    endLine: symbol.endLine,
    hitScore,
  };
}

/**
 * Unique importers without the file itself; importers that are candidates
 * themselves come first by rank (the agent sees a relation between two listed
 * files), then the rest by path.
 */
function sortImporters(importers: readonly string[], self: string, rankOf: ReadonlyMap<string, number>): string[] {
  const unique = [...new Set(importers)].filter((p) => p !== self);
  return unique.sort((a, b) => {
    const ra = rankOf.get(a) ?? Number.POSITIVE_INFINITY;
    const rb = rankOf.get(b) ?? Number.POSITIVE_INFINITY;
    return ra === rb ? compareStrings(a, b) : ra < rb ? -1 : 1;
  });
}
