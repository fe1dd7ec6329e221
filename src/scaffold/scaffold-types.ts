/**
 * Types shared by the scaffold renderers: the per-file input the caller supplies
 * next to a RetrievalResult, the options, and the structured model that both the
 * text and the JSON renderers read, so the two forms can never disagree.
 */
import type { CodeSymbol, SymbolKind } from '../parse/index.js';
import type { DocPlacement } from '../retrieve/index.js';

/** What the scaffold needs to know about one parsed candidate file. */
export interface ScaffoldFile {
  path: string;
  symbols: CodeSymbol[];
  /** Repository paths of the files that import this one (order irrelevant; the renderer sorts). */
  importedBy: string[];
  /** The file's language and text, which call edges are resolved with (without them no receiver variable resolves). */
  language?: string;
  text?: string | null;
}

/** Knobs of the RepoNav scaffold. Every field is optional; defaults follow the paper. */
export interface ScaffoldOptions {
  /** Files taken from the ranked list and shown (the paper parses the top 5). Default 5. */
  parseTop?: number;
  /** Of those, how many are expanded with ANCHORS/GLIMPSE/TARGETS (the paper: 3). Default 3. */
  expandTop?: number;
  /** Max anchors per expanded file. Default 2. */
  maxAnchors?: number;
  /** Max glimpse symbols per expanded file. Default 3. */
  maxGlimpse?: number;
  /** Max glimpse symbols for the rank-1 file when it has no anchor. Default 5. */
  maxGlimpseTopNoAnchor?: number;
  /** Max candidate targets per expanded file. Default 4. */
  maxTargets?: number;
  /** Names shown per `invokes ->` / `invoked-by <-` list before `(+n more)`. Default 5. */
  maxNeighbours?: number;
  /** Importers shown on the `imports-by <-` line before `(+n more)`. Default 2. */
  maxImportedBy?: number;
  /** Documentation files listed as `[DOC]` entries (see retrieve/doc-search.ts). Default 3. */
  maxDocs?: number;
  /** Output budget in estimated tokens (see estimateTokens). Default 1500. */
  budgetTokens?: number;
  /** Block switches for the RQ2 ablations; they change only what is printed, never what is selected. All default true. */
  anchors?: boolean;
  glimpse?: boolean;
  targets?: boolean;
  cue?: boolean;
  importsBy?: boolean;
}

/** ScaffoldOptions with every default applied. */
export type ResolvedScaffoldOptions = Required<ScaffoldOptions>;

/** A symbol as the scaffold shows it: enough to name it, locate it and say why it is there. */
export interface ScaffoldSymbolRef {
  qualifiedName: string;
  kind: SymbolKind;
  startLine: number;
  endLine: number;
  /** Best score of a retrieval hit whose chunk is this symbol, or null when none. */
  hitScore: number | null;
}

/** An anchor: a symbol whose name matches the query, with its same-file call neighbours. */
export interface ScaffoldAnchor extends ScaffoldSymbolRef {
  /** Distinct query tokens found in the name, in query order. */
  matchedTokens: string[];
  /** Same-file symbols this one calls (qualified names, uncapped; the text renderer caps). */
  invokes: string[];
  /** Same-file symbols calling this one (qualified names, uncapped). */
  invokedBy: string[];
}

/** Where a candidate target came from; the order of this union is the targets' order. */
export type TargetSource = 'anchor' | 'neighbour' | 'glimpse';

export interface ScaffoldTarget extends ScaffoldSymbolRef {
  source: TargetSource;
}

/** One ranked file of the scaffold. */
export interface ScaffoldFileBlock {
  /** 1-based rank after stage-1 aggregation. */
  rank: number;
  path: string;
  /** Directory used for grouping; `.` for files at the repository root. */
  directory: string;
  score: number;
  /** Number of this file's hits among the raw hits. */
  evidence: number;
  /** True for the top `expandTop` files; false for header-only files. */
  expanded: boolean;
  /** False when the caller supplied no ScaffoldFile for this path (its blocks are then empty). */
  parsed: boolean;
  /** Importers, sorted: those that are themselves candidates first (by rank), then by path. */
  importedBy: string[];
  anchors: ScaffoldAnchor[];
  glimpse: ScaffoldSymbolRef[];
  targets: ScaffoldTarget[];
}

/** Everything the scaffold text and JSON are rendered from. */
export interface ScaffoldModel {
  query: string;
  /** The query tokens actually used for matching (lower-cased, unique, ≥ 3 chars). */
  queryTokens: string[];
  /** Total number of ranked files in the retrieval result (the model keeps the top `parseTop`). */
  totalFiles: number;
  files: ScaffoldFileBlock[];
  /** Documentation entries, best first (at most `maxDocs`). */
  docs: ScaffoldDoc[];
  /** `below`: docs after every file, in print and budget order; `equal`: docs first, budgeted by relative score with the files. */
  docPlacement: DocPlacement;
  /** Budget priority of files and docs: file ranks and doc ranks (`doc:N`), most important first. */
  priority: string[];
  options: ResolvedScaffoldOptions;
}

/** One documentation file of the scaffold, by its best-matching section. */
export interface ScaffoldDoc {
  /** 1-based rank among the docs. */
  rank: number;
  path: string;
  /** Heading path of the best-matching section, or null for lines before any heading. */
  section: string | null;
  startLine: number;
  endLine: number;
  score: number;
}
