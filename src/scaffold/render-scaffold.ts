/**
 * The RepoNav scaffold as text (paper, Appendix G / Figure 8): the top files
 * grouped by directory; the top ones expanded with imports-by, ANCHORS, GLIMPSE,
 * CANDIDATE_TARGETS and a next-step cue; the rest as header lines.
 */
import type { RetrievalResult } from '../retrieve/index.js';
import { buildScaffoldModel } from './build-scaffold-model.js';
import type { ScaffoldFile, ScaffoldFileBlock, ScaffoldModel, ScaffoldOptions } from './scaffold-types.js';
import { displayPath, formatNameList, formatSpan } from './text-format.js';
import { type BudgetLine, fitUnits, truncationLine } from '../budget/index.js';

export { buildScaffoldModel, DEFAULT_SCAFFOLD_OPTIONS, resolveScaffoldOptions } from './build-scaffold-model.js';

/** The cue printed at the end of every expanded file (verbatim from the paper). */
export const NEXT_STEP_CUE = '>> Next: run list_symbols on this file to inspect sibling symbols.';

/** Printed instead of a tree when retrieval found no file. */
export const NO_CANDIDATES_LINE = 'No candidate files were retrieved for this query.';

/**
 * Renders the scaffold text for a retrieval result. Equivalent to
 * renderScaffoldModel(buildScaffoldModel(result, files, options)). The output
 * is deterministic, never exceeds `budgetTokens` estimated tokens (unless the
 * budget is smaller than the truncation line itself), and is plain text without
 * a trailing newline.
 */
export function renderScaffold(
  result: RetrievalResult,
  files: ReadonlyMap<string, ScaffoldFile>,
  options: ScaffoldOptions = {},
): string {
  return renderScaffoldModel(buildScaffoldModel(result, files, options));
}

interface KeyedLine {
  key: string;
  text: string;
}

/** One printed mention of a symbol (an anchor, glimpse or target line). */
interface SymbolItem {
  rank: number;
  /** `${rank}:${qualifiedName}`: the same symbol in ANCHORS and TARGETS is one symbol for the cut count. */
  symbolId: string;
  key: string;
}

/**
 * Renders a model. Lines are written in tree order (directories ordered by their
 * best file's rank, files by rank). Under budget pressure whole units are kept
 * in priority order — file by file in rank order, and within a file: header,
 * each anchor (with its call lines), each target, imports-by, each glimpse
 * symbol, the cue — skipping units that do not fit, so the least relevant
 * lines of the lowest-ranked files go first. Documentation entries (`[DOCS]`)
 * are printed after the tree and kept after every file unless the model ranks
 * them on equal terms (`docPlacement` `equal`: printed first, kept in the
 * model's merged order). Then one `[TRUNCATED]` line says how many files,
 * symbols, other lines and docs were left out.
 */
export function renderScaffoldModel(model: ScaffoldModel): string {
  const { options } = model;
  if (model.files.length === 0 && model.docs.length === 0) return NO_CANDIDATES_LINE;

  const document: KeyedLine[] = [];
  const unitsOf = new Map<string, BudgetLine[][]>();
  const symbolItems: SymbolItem[] = [];
  const otherLineKeys: Array<{ rank: number; key: string }> = [];

  const docLines = docBlock(model);
  if (model.docPlacement === 'equal') document.push(...docLines);
  const directories = [...new Set(model.files.map((f) => f.directory))];
  for (const directory of directories) {
    document.push({ key: `dir:${directory}`, text: `[DIR] ${directory}` });
    for (const file of model.files.filter((f) => f.directory === directory)) {
      document.push(...fileLines(file, model));
    }
  }
  if (model.docPlacement !== 'equal') document.push(...docLines);
  const byKey = new Map(document.map((line) => [line.key, line]));
  const line = (key: string): KeyedLine => byKey.get(key)!;

  for (const doc of model.docs) unitsOf.set(`doc:${doc.rank}`, [[line('sec:docs'), line(`doc:${doc.rank}`)]]);
  for (const file of model.files) {
    const r = file.rank;
    const units: BudgetLine[][] = [];
    unitsOf.set(`file:${r}`, units);
    const header = [line(`dir:${file.directory}`), line(`file:${r}`)];
    units.push(header);
    if (!file.expanded) continue;
    const section = (name: string) => line(`sec:${name}:${r}`);
    if (options.anchors) {
      file.anchors.forEach((anchor, i) => {
        const keys = [`anchor:${r}:${i}`, `anchor:${r}:${i}:invokes`, `anchor:${r}:${i}:invoked-by`].filter((k) => byKey.has(k));
        units.push([...header, section('anchors'), ...keys.map(line)]);
        symbolItems.push({ rank: r, symbolId: `${r}:${anchor.qualifiedName}`, key: keys[0] });
      });
    }
    if (options.targets) {
      file.targets.forEach((target, i) => {
        units.push([...header, section('targets'), line(`target:${r}:${i}`)]);
        symbolItems.push({ rank: r, symbolId: `${r}:${target.qualifiedName}`, key: `target:${r}:${i}` });
      });
    }
    if (byKey.has(`imports:${r}`)) {
      units.push([...header, line(`imports:${r}`)]);
      otherLineKeys.push({ rank: r, key: `imports:${r}` });
    }
    if (options.glimpse) {
      file.glimpse.forEach((ref, i) => {
        units.push([...header, section('glimpse'), line(`glimpse:${r}:${i}`)]);
        symbolItems.push({ rank: r, symbolId: `${r}:${ref.qualifiedName}`, key: `glimpse:${r}:${i}` });
      });
    }
    if (byKey.has(`cue:${r}`)) {
      units.push([...header, line(`cue:${r}`)]);
      otherLineKeys.push({ rank: r, key: `cue:${r}` });
    }
  }
  // Files and docs in the model's priority order (docs last unless they rank on equal terms).
  const units = model.priority.flatMap((key) => unitsOf.get(key) ?? []);

  // Files cut whole are counted as files; symbols and other lines only within
  // files still shown. `kept === null` yields the worst case (everything cut),
  // whose line is at least as long as any real one: fitUnits reserves room for it.
  const cutLine = (kept: ReadonlySet<string> | null) => {
    const shown = (rank: number) => kept === null || kept.has(`file:${rank}`);
    const isKept = (key: string) => kept !== null && kept.has(key);
    const keptSymbols = new Set(symbolItems.filter((s) => isKept(s.key)).map((s) => s.symbolId));
    const cutSymbols = new Set(symbolItems.filter((s) => shown(s.rank) && !keptSymbols.has(s.symbolId)).map((s) => s.symbolId));
    const cutOther = otherLineKeys.filter((o) => shown(o.rank) && !isKept(o.key)).length;
    const cutFiles = model.files.filter((f) => !isKept(`file:${f.rank}`)).length;
    const cutDocs = model.docs.filter((d) => !isKept(`doc:${d.rank}`)).length;
    return truncationLine(
      [
        { count: cutFiles, singular: 'file', plural: 'files' },
        { count: cutSymbols.size, singular: 'symbol', plural: 'symbols' },
        { count: cutOther, singular: 'line', plural: 'lines' },
        { count: cutDocs, singular: 'doc', plural: 'docs' },
      ],
      options.budgetTokens,
    );
  };

  const fit = fitUnits(units, options.budgetTokens, 'skip', cutLine(null));
  const kept = document.filter((l) => fit.keys.has(l.key)).map((l) => l.text);
  if (fit.truncated) kept.push(cutLine(fit.keys));
  return kept.join('\n');
}

/** The `[DOCS]` header and one `[DOC] path:start-end § section` line per doc (none when there are no docs). */
function docBlock(model: ScaffoldModel): KeyedLine[] {
  if (model.docs.length === 0) return [];
  return [
    { key: 'sec:docs', text: '[DOCS]' },
    ...model.docs.map((d) => ({
      key: `doc:${d.rank}`,
      text: `  [DOC] ${displayPath(d.path)}:${d.startLine}-${d.endLine}${d.section === null ? '' : ` § ${d.section}`}`,
    })),
  ];
}

/** The keyed lines of one file in display order (directory header excluded). */
function fileLines(file: ScaffoldFileBlock, model: ScaffoldModel): KeyedLine[] {
  const { options } = model;
  const r = file.rank;
  const out: KeyedLine[] = [{ key: `file:${r}`, text: `  [FILE] ${displayPath(file.path)} (evidence: ${file.evidence})` }];
  if (!file.expanded) return out;
  if (options.importsBy && file.importedBy.length > 0) {
    out.push({ key: `imports:${r}`, text: `    imports-by <- ${formatNameList(file.importedBy, options.maxImportedBy)}` });
  }
  if (options.anchors && file.anchors.length > 0) {
    out.push({ key: `sec:anchors:${r}`, text: '    [ANCHORS]' });
    file.anchors.forEach((a, i) => {
      out.push({ key: `anchor:${r}:${i}`, text: `      - ${a.qualifiedName} ${formatSpan(a.startLine, a.endLine)} (${a.kind})` });
      if (a.invokes.length > 0) {
        out.push({ key: `anchor:${r}:${i}:invokes`, text: `          invokes -> ${formatNameList(a.invokes, options.maxNeighbours)}` });
      }
      if (a.invokedBy.length > 0) {
        out.push({
          key: `anchor:${r}:${i}:invoked-by`,
          text: `          invoked-by <- ${formatNameList(a.invokedBy, options.maxNeighbours)}`,
        });
      }
    });
  }
  if (options.glimpse && file.glimpse.length > 0) {
    out.push({ key: `sec:glimpse:${r}`, text: '    [GLIMPSE]' });
    file.glimpse.forEach((g, i) => {
      out.push({ key: `glimpse:${r}:${i}`, text: `      - ${g.qualifiedName} ${formatSpan(g.startLine, g.endLine)} (${g.kind})` });
    });
  }
  if (options.targets && file.targets.length > 0) {
    out.push({ key: `sec:targets:${r}`, text: '    [CANDIDATE_TARGETS]' });
    file.targets.forEach((t, i) => {
      out.push({ key: `target:${r}:${i}`, text: `      - ${t.qualifiedName} ${formatSpan(t.startLine, t.endLine)}` });
    });
  }
  if (options.cue) out.push({ key: `cue:${r}`, text: `    ${NEXT_STEP_CUE}` });
  return out;
}
