/**
 * One entry point for the evaluation harness to render any of the RQ2
 * interfaces from the same retrieval result, so that a run's configuration can
 * name the interface as data.
 */
import { ReponavError } from '../errors.js';
import type { RetrievalResult } from '../retrieve/index.js';
import { renderFileOnly } from './render-file-only.js';
import { renderInline } from './render-inline.js';
import { renderScaffoldJson } from './render-json.js';
import { renderScaffold } from './render-scaffold.js';
import { type ReadLines, renderSnippets } from './render-snippet.js';
import type { ScaffoldFile, ScaffoldOptions } from './scaffold-types.js';

/** The interfaces compared in RQ2 (ablations of the scaffold are `scaffold` with block switches). */
export type InterfaceMode = 'scaffold' | 'snippet' | 'file-only' | 'inline' | 'json';

export const INTERFACE_MODES: readonly InterfaceMode[] = ['scaffold', 'snippet', 'file-only', 'inline', 'json'];

export interface InterfaceOptions extends ScaffoldOptions {
  /** Required for `snippet`; ignored otherwise. */
  readLines?: ReadLines;
  /** `snippet`: hits shown (default 10). */
  topK?: number;
  /** `snippet`: code lines per hit (default 30). */
  maxLinesPerHit?: number;
  /** `inline`: hit lines per file (default 5). */
  maxHitsPerFile?: number;
}

/**
 * Renders `mode` as text. `file-only` and `inline` show the scaffold's
 * `parseTop` files; `json` is the scaffold JSON pretty-printed with two spaces.
 * Throws when `snippet` is asked for without `readLines`.
 */
export function renderInterface(
  mode: InterfaceMode,
  result: RetrievalResult,
  files: ReadonlyMap<string, ScaffoldFile>,
  options: InterfaceOptions = {},
): string {
  const budgetTokens = options.budgetTokens;
  const topFiles = options.parseTop;
  switch (mode) {
    case 'scaffold':
      return renderScaffold(result, files, options);
    case 'json':
      return JSON.stringify(renderScaffoldJson(result, files, options), null, 2);
    case 'file-only':
      return renderFileOnly(result, { topFiles, budgetTokens });
    case 'inline':
      return renderInline(result, { topFiles, budgetTokens, maxHitsPerFile: options.maxHitsPerFile });
    case 'snippet':
      if (!options.readLines) throw new ReponavError('BAD_INPUT', 'The snippet interface needs a readLines callback to show code.');
      return renderSnippets(result, {
        readLines: options.readLines,
        topK: options.topK,
        maxLinesPerHit: options.maxLinesPerHit,
        budgetTokens,
      });
  }
}
