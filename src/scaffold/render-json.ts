/**
 * The scaffold's machine form: the same choices as the text, as a plain
 * JSON-serialisable object. Every object is built literally in a fixed key
 * order, so JSON.stringify of the same input is byte-identical across runs.
 * The JSON carries every block regardless of the ablation switches (those
 * only concern what an agent reads) and is not budgeted: it is bounded by
 * parseTop and the per-block caps.
 */
import type { RetrievalResult } from '../retrieve/index.js';
import { buildScaffoldModel } from './build-scaffold-model.js';
import type { ScaffoldFile, ScaffoldModel, ScaffoldOptions, TargetSource } from './scaffold-types.js';
import type { SymbolKind } from '../parse/index.js';

export interface ScaffoldJsonSymbol {
  qualifiedName: string;
  kind: SymbolKind;
  startLine: number;
  endLine: number;
  hitScore: number | null;
}

export interface ScaffoldJsonAnchor extends ScaffoldJsonSymbol {
  matchedTokens: string[];
  invokes: string[];
  invokedBy: string[];
}

export interface ScaffoldJsonTarget extends ScaffoldJsonSymbol {
  source: TargetSource;
}

export interface ScaffoldJsonFile {
  rank: number;
  path: string;
  score: number;
  evidence: number;
  expanded: boolean;
  parsed: boolean;
  importedBy: string[];
  /** Present only on expanded files. */
  anchors?: ScaffoldJsonAnchor[];
  glimpse?: ScaffoldJsonSymbol[];
  targets?: ScaffoldJsonTarget[];
}

export interface ScaffoldJson {
  query: string;
  queryTokens: string[];
  totalFiles: number;
  files: ScaffoldJsonFile[];
}

/** The JSON form of a scaffold model (see the module comment for its guarantees). */
export function scaffoldModelToJson(model: ScaffoldModel): ScaffoldJson {
  return {
    query: model.query,
    queryTokens: [...model.queryTokens],
    totalFiles: model.totalFiles,
    files: model.files.map((file) => {
      const out: ScaffoldJsonFile = {
        rank: file.rank,
        path: file.path,
        score: file.score,
        evidence: file.evidence,
        expanded: file.expanded,
        parsed: file.parsed,
        importedBy: [...file.importedBy],
      };
      if (!file.expanded) return out;
      out.anchors = file.anchors.map((a) => ({
        ...symbolJson(a),
        matchedTokens: [...a.matchedTokens],
        invokes: [...a.invokes],
        invokedBy: [...a.invokedBy],
      }));
      out.glimpse = file.glimpse.map(symbolJson);
      out.targets = file.targets.map((t) => ({ ...symbolJson(t), source: t.source }));
      return out;
    }),
  };
}

/** buildScaffoldModel followed by scaffoldModelToJson. */
export function renderScaffoldJson(
  result: RetrievalResult,
  files: ReadonlyMap<string, ScaffoldFile>,
  options: ScaffoldOptions = {},
): ScaffoldJson {
  return scaffoldModelToJson(buildScaffoldModel(result, files, options));
}

function symbolJson(ref: ScaffoldJsonSymbol): ScaffoldJsonSymbol {
  return {
    qualifiedName: ref.qualifiedName,
    kind: ref.kind,
    startLine: ref.startLine,
    endLine: ref.endLine,
    hitScore: ref.hitScore,
  };
}
