/**
 * list_symbols: one file's skeleton (imports, every definition with its span,
 * signature and doc line, nested by parent) — the paper's next step after the
 * scaffold, for choosing what to read.
 */
import * as z from '../zod-mini.js';
import type { SymbolRow } from '../index/index.js';
import { proseFormatOf, proseOutline, type ImportRecord } from '../parse/index.js';
import { buildSkeletonJson, renderSkeleton, type SkeletonInput } from '../scaffold/index.js';
import { formatNameList } from '../scaffold/index.js';
import { estimateTokens } from '../budget/index.js';
import { budgetArg, described, nonEmptyStringArg, repoArg, lazySchema } from './tool-args.js';
import type { ToolDefinition } from './tool-types.js';
import { listSymbolsOutputSchema } from './output-schemas.js';

const listInput = lazySchema(() =>
  z.strictObject({
    file: described(nonEmptyStringArg('file', 4096), 'Repository-relative path of the file, e.g. `src/app/models.py`.'),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

interface ListData {
  input: SkeletonInput;
  importedBy: string[];
}

function plainSymbol(s: SymbolRow) {
  return {
    name: s.name,
    qualifiedName: s.qualifiedName,
    kind: s.kind,
    parent: s.parent,
    startLine: s.startLine,
    endLine: s.endLine,
    signature: s.signature,
    doc: s.doc,
    callees: s.callees,
    ...(s.calls ? { calls: s.calls } : {}),
    bases: s.bases,
  };
}

/** `list_symbols`: a file's skeleton. */
export const listSymbolsTool: ToolDefinition<z.infer<ReturnType<typeof listInput>>, ListData> = {
  name: 'list_symbols',
  title: 'List symbols of a file',
  description:
    "One file's outline without bodies: imports, importers, every class, function and method with line span, " +
    'signature and doc line (for a Markdown, RST or text file: its headings). Use after search names a file, to choose what to read; view_code reads the bodies.',
  get inputSchema() {
    return listInput();
  },
  get outputSchema() {
    return listSymbolsOutputSchema();
  },
  defaultBudgetTokens: 1500,
  run(args, env) {
    const { index } = env.repository;
    const file = index.resolveFile(args.file);
    const imports: ImportRecord[] = index.store.importsOfFile(file.path);
    // A prose file has no parsed symbols: its headings are its outline, read from the stored text.
    const prose = file.language === 'unknown' ? proseFormatOf(file.path) : null;
    const text = prose === null ? null : index.store.fileText(file.path);
    const input: SkeletonInput = {
      path: file.path,
      language: prose ?? file.language,
      imports,
      symbols: prose !== null && text !== null ? proseOutline(text, prose) : index.store.symbolsOf(file.path).map(plainSymbol),
      status: prose !== null && text !== null ? 'ok' : (file.status as SkeletonInput['status']),
      errorCount: file.errorCount,
      lineCount: file.lineCount,
    };
    return { input, importedBy: index.store.importedBy(file.path) };
  },
  render({ input, importedBy }, env) {
    // The imported-by line is a small extra the scaffold also shows; it is dropped first under pressure.
    const extra = importedBy.length > 0 ? `imported-by: ${formatNameList(importedBy, 5)}` : null;
    const extraCost = extra ? estimateTokens(extra) + 1 : 0;
    const withExtra = extra ? renderSkeleton(input, { budgetTokens: Math.max(1, env.budgetTokens - extraCost) }) : null;
    if (extra && withExtra && !withExtra.includes('[TRUNCATED]')) {
      const lines = withExtra.split('\n');
      const at = lines.findIndex((line, i) => i > 0 && !line.startsWith('[') && !line.startsWith('imports:'));
      lines.splice(at === -1 ? lines.length : at, 0, extra);
      return lines.join('\n');
    }
    return renderSkeleton(input, { budgetTokens: env.budgetTokens });
  },
  /** Every symbol, unless the caller asked for a budget: then what fits, with `symbolsLeftOut` saying how many did not. */
  toJson({ input, importedBy }, env) {
    return { ...buildSkeletonJson(input, { budgetTokens: env.askedBudgetTokens ?? Number.POSITIVE_INFINITY }), importedBy };
  },
};
