/**
 * changed_files: the files changed between two revisions, or in the working
 * tree against HEAD (staged, unstaged, untracked), each with the functions
 * and classes it added, removed or modified.
 */
import * as z from '../zod-mini.js';
import { changedPaths, displayPath, gitContextOf, type ChangeArea, type ChangeStatus } from '../index/index.js';
import { renderBlocks } from './output-budget.js';
import { comparedSides, revisionArg, symbolChangesOf, type ComparedSides } from './git-revisions.js';
import { symbolChangeSummary, type SymbolChange } from './symbol-changes.js';
import { budgetArg, described, filePatternArg, lazySchema, pathFilterOf, repoArg, wholeNumberArg } from './tool-args.js';
import type { ToolDefinition } from './tool-types.js';
import { countOf } from '../plural.js';

/** Files whose symbols are compared at most (the rest are listed with their status only). */
export const MAX_SYMBOL_DIFF_FILES = 200;

const changedFilesInput = lazySchema(() =>
  z.strictObject({
    from: revisionArg('from', 'Older revision (commit, branch, tag, HEAD~3). Default: HEAD for a working tree, the parent in commit mode.'),
    to: revisionArg('to', 'Newer revision; default: the working tree (or the commit read with --commit).'),
    file_pattern: filePatternArg(),
    limit: described(z.optional(wholeNumberArg('limit', 1, 5000)), 'Most files listed (default 300).'),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

type ChangedFilesInput = z.infer<ReturnType<typeof changedFilesInput>>;

/** One changed file and its symbol-level changes. */
export interface ChangedFile {
  path: string;
  oldPath: string | null;
  status: ChangeStatus;
  area: ChangeArea;
  /** Null when not compared (past MAX_SYMBOL_DIFF_FILES, or unreadable on both sides). */
  symbols: SymbolChange[] | null;
}

/** What changed_files answers. */
export interface ChangedFilesData {
  comparison: ComparedSides;
  total: number;
  files: ChangedFile[];
  /** Files past `limit`, not listed. */
  filesLeftOut: number;
}

const ORDER: Record<ChangeArea, number> = { staged: 0, unstaged: 1, untracked: 2, revisions: 3 };

/** `changed_files`: what changed, file by file and symbol by symbol. */
export const changedFilesTool: ToolDefinition<ChangedFilesInput, ChangedFilesData> = {
  name: 'changed_files',
  title: 'Changed files',
  description:
    'Files changed between two git revisions, or in the working tree against HEAD (staged, unstaged, untracked), each ' +
    'with the functions and classes added, removed or modified. Use to review a change or a pull request; diff shows one file.',
  get inputSchema() {
    return changedFilesInput();
  },
  defaultBudgetTokens: 2000,
  async run(args, env) {
    const { index } = env.repository;
    const context = gitContextOf(index.source);
    const sides = comparedSides(context, args.from, args.to);
    const matches = pathFilterOf(args.file_pattern);
    const all = changedPaths(context, sides.before === null ? null : sides.kind === 'worktree-head' ? null : sides.before, sides.after)
      .filter((c) => !matches || matches(c.path) || (c.oldPath !== null && matches(c.oldPath)))
      .sort((a, b) => ORDER[a.area] - ORDER[b.area] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const limit = args.limit ?? 300;
    const files: ChangedFile[] = [];
    for (const change of all.slice(0, limit)) {
      const symbols = files.length < MAX_SYMBOL_DIFF_FILES ? await symbolChangesOf(context, index.store, change, sides) : null;
      files.push({ ...change, symbols });
    }
    return { comparison: sides, total: all.length, files, filesLeftOut: Math.max(0, all.length - limit) };
  },
  render(data, env) {
    const head = [`[CHANGES] ${data.comparison.label}: ${data.total} ${data.total === 1 ? 'file' : 'files'} changed`];
    if (data.total === 0) head.push('(nothing changed)');
    const width = Math.max(0, ...data.files.map((f) => f.area.length));
    const blocks = data.files.map((f) => {
      const where = data.comparison.kind === 'worktree-head' ? `${f.area.padEnd(width)}  ` : '';
      const path = f.oldPath ? `${displayPath(f.oldPath)} → ${displayPath(f.path)}` : displayPath(f.path);
      const symbols = f.symbols && f.symbols.length > 0 ? `  ${symbolChangeSummary(f.symbols)}` : '';
      return [`${where}${f.status.padEnd(8)}  ${path}${symbols}`];
    });
    const footer = data.files.some((f) => f.symbols && f.symbols.length > 0) ? ['(+ added, ~ modified, - removed; diff shows a file)'] : [];
    if (data.filesLeftOut > 0) footer.push(`[MORE] ${countOf(data.filesLeftOut, 'more file', 'more files')}; raise limit or narrow with file_pattern.`);
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'file', plural: 'files' }, { alreadyLeftOut: data.filesLeftOut, footer });
  },
  toJson(data) {
    return data;
  },
};
