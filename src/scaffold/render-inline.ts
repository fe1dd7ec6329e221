/**
 * The Inline interface of the RQ2 comparison: ranked files with the symbols of
 * their hits listed under them, i.e. the retrieval evidence without the
 * scaffold's ANCHORS / GLIMPSE / CANDIDATE_TARGETS structure.
 */
import type { RetrievalResult } from '../retrieve/index.js';
import { countEvidence, fileHits, sortFiles } from './hit-evidence.js';
import { type FileListOptions, fileListEntry, fileListHeader } from './render-file-only.js';
import { FILE_CHUNK_LABEL } from './render-snippet.js';
import { formatScore, formatSpan } from './text-format.js';
import { DEFAULT_BUDGET_TOKENS, fitUnits, truncationLine } from '../budget/index.js';
import { countOf } from '../plural.js';

export interface InlineOptions extends FileListOptions {
  /** Hit lines per file before `(+n more hits)`. Default 5. */
  maxHitsPerFile?: number;
}

/**
 * Renders the top files (as renderFileOnly) each followed by its hits, best
 * first: `- Class.method [L10-20] (hit 3.100)`. Under the budget the text is cut
 * as a ranked prefix, line by line (a file line, then its hit lines), so the
 * best file always shows; the final `[TRUNCATED]` line counts the files and the
 * hit lines left out.
 */
export function renderInline(result: RetrievalResult, options: InlineOptions = {}): string {
  const budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const maxHits = options.maxHitsPerFile ?? 5;
  const ranked = sortFiles(result.files);
  const files = ranked.slice(0, Math.max(0, options.topFiles ?? 5));
  if (files.length === 0) return 'No candidate files were retrieved for this query.';
  const units: string[][] = [[fileListHeader(files.length, ranked.length)]];
  const unitIsFile: boolean[] = [false];
  files.forEach((file, i) => {
    const hits = fileHits(result, file, file.path);
    units.push([fileListEntry(i + 1, file.path, file.score, countEvidence(result, file.path))]);
    unitIsFile.push(true);
    for (const hit of hits.slice(0, Math.max(0, maxHits))) {
      units.push([`   - ${hit.symbol ?? FILE_CHUNK_LABEL} ${formatSpan(hit.startLine, hit.endLine)} (hit ${formatScore(hit.score)})`]);
      unitIsFile.push(false);
    }
    if (hits.length > maxHits) {
      units.push([`   - (+${countOf(hits.length - maxHits, 'more hit', 'more hits')})`]);
      unitIsFile.push(false);
    }
  });
  const cut = (fileCount: number, hitLines: number) =>
    truncationLine(
      [
        { count: fileCount, singular: 'file', plural: 'files' },
        { count: hitLines, singular: 'hit line', plural: 'hit lines' },
      ],
      budget,
    );
  const fit = fitUnits(units, budget, 'stop', cut(files.length, units.length - files.length - 1));
  if (!fit.truncated) return fit.lines.join('\n');
  const dropped = fit.keptUnits.map((kept, i) => !kept && i > 0);
  const filesOut = dropped.filter((d, i) => d && unitIsFile[i]).length;
  const hitLinesOut = dropped.filter((d, i) => d && !unitIsFile[i]).length;
  return [...fit.lines, cut(filesOut, hitLinesOut)].join('\n');
}
