/**
 * index_status and reindex: what the index holds and how fresh it is, and an
 * explicit refresh. Other tools refresh on their own before answering, so these
 * are for orientation (which repositories, which languages) and for large
 * changes (a branch switch) whose re-indexing an agent wants to see.
 */
import * as z from '../zod-mini.js';
import type { IndexReport } from '../index/index.js';
import type { IndexStatus } from '../index/index.js';
import { formatNameList } from '../scaffold/index.js';
import { freshenForCall, stillIndexingText } from './tool-freshness.js';
import { renderBlocks } from './output-budget.js';
import { budgetArg, repoArg, lazySchema } from './tool-args.js';
import type { ToolDefinition } from './tool-types.js';
import { countOf } from '../plural.js';

const statusInput = lazySchema(() => z.strictObject({ repo: repoArg(), budget_tokens: budgetArg() }));

interface StatusData {
  /** One entry per repository asked about: the `repo` given, or every served one when it was omitted. */
  statuses: Array<{ repository: string; status: IndexStatus }>;
  /** Every served repository's name (so a client learns the choices for `repo`). */
  repositories: string[];
}

function counts(record: Partial<Record<string, number>>): string {
  const entries = Object.entries(record).filter(([, n]) => (n ?? 0) > 0);
  entries.sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0) || (a[0] < b[0] ? -1 : 1));
  return entries.map(([k, n]) => `${k} ${n}`).join(', ');
}

/** The status lines of one repository. */
function statusLines(repository: string, status: IndexStatus): string[] {
  const source = status.mode === 'commit' ? `commit ${status.commit}` : 'working tree';
  const lines = [`Repository '${repository}': ${status.root} (${source})`];
  if (status.indexedAt === null) {
    lines.push('Not indexed yet: the next tool call (or reindex) indexes it.');
    return lines;
  }
  lines.push(
    `Indexed ${new Date(status.indexedAt).toISOString()}${status.complete ? '' : ' (incomplete: an indexing run was interrupted; the next call resumes it)'}`,
  );
  lines.push(`${countOf(status.files, 'file')} (${counts(status.languages) || 'none'}), ${countOf(status.symbols, 'symbol')}, ${countOf(status.chunks, 'chunk')}`);
  if (status.partialFiles > 0) lines.push(`${countOf(status.partialFiles, 'file')} not fully parsed (syntax errors or no parser for the language)`);
  if (status.failedFiles > 0) lines.push(`${countOf(status.failedFiles, 'file')} could not be parsed (searchable as text only; the next reindex tries again)`);
  const skipped = counts(status.skipped);
  if (skipped) lines.push(`Skipped: ${skipped}`);
  const { changed, added, deleted } = status.stale;
  if (changed.length + added.length + deleted.length === 0) lines.push('Fresh: the index matches the files on disk.');
  else {
    lines.push(`Stale (re-indexed on the next tool call): ${changed.length} changed, ${added.length} added, ${deleted.length} deleted`);
    if (changed.length) lines.push(`  changed: ${formatNameList(changed, 10)}`);
    if (added.length) lines.push(`  added: ${formatNameList(added, 10)}`);
    if (deleted.length) lines.push(`  deleted: ${formatNameList(deleted, 10)}`);
  }
  return lines;
}

/** `index_status`: what is indexed and what is stale. */
export const indexStatusTool: ToolDefinition<z.infer<ReturnType<typeof statusInput>>, StatusData> = {
  name: 'index_status',
  title: 'Index status',
  description:
    'List the served repositories and, for each (or the one named by repo), what is indexed: file and symbol counts ' +
    'per language, files not fully parsed or skipped, files changed since indexing. Cheap; does not re-index. Call it ' +
    'to learn repo names or why a file is missing from results; not needed before other tools (they refresh themselves).',
  get inputSchema() {
    return statusInput();
  },
  defaultBudgetTokens: 800,
  freshness: 'as-is',
  repositoryOmitted: 'all',
  async run(args, env) {
    const served = env.context.repositories;
    const handles = args.repo === undefined || args.repo === '' ? served.all() : [env.repository];
    const statuses = await Promise.all(handles.map(async (h) => ({ repository: h.name, status: await h.index.status() })));
    return { statuses, repositories: served.names() };
  },
  render({ statuses, repositories }, env) {
    const head = repositories.length > 1 ? [`Served repositories (pass as repo): ${repositories.join(', ')}`] : [];
    const blocks = statuses.map(({ repository, status }) => statusLines(repository, status));
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'repository', plural: 'repositories' });
  },
  toJson({ statuses, repositories }) {
    // One repository keeps the flat shape ({ repository, repositories, ...status }); several are listed.
    if (statuses.length === 1) return { repository: statuses[0].repository, repositories, ...statuses[0].status };
    return { repositories, statuses: statuses.map(({ repository, status }) => ({ repository, ...status })) };
  },
};

const reindexInput = lazySchema(() => z.strictObject({ repo: repoArg(), budget_tokens: budgetArg() }));

/** What reindex returns: the run's report, or that it is still running. */
type ReindexData = { repository: string; report: IndexReport } | { repository: string; pending: { done: number; total: number } | null };

/** `reindex`: refresh the index now and report what changed. */
export const reindexTool: ToolDefinition<z.infer<ReturnType<typeof reindexInput>>, ReindexData> = {
  name: 'reindex',
  title: 'Re-index',
  description:
    'Re-index now and report what changed. Rarely needed: every tool re-indexes changed files before answering. ' +
    'Use after a branch switch or a large generated change, to see what was re-indexed.',
  get inputSchema() {
    return reindexInput();
  },
  writesIndex: true,
  defaultBudgetTokens: 800,
  freshness: 'as-is',
  async run(_args, env) {
    const { repository } = env;
    const fresh = await freshenForCall(repository, env.context);
    if (fresh.state === 'indexing') return { repository: repository.name, pending: fresh.progress ? { done: fresh.progress.done, total: fresh.progress.total } : null };
    return { repository: repository.name, report: fresh.report };
  },
  render(data) {
    if ('pending' in data) return stillIndexingText(data.repository, data.pending, 'Call index_status later to see the result.');
    const r = data.report;
    const lines = [
      `Re-indexed '${data.repository}' in ${r.durationMs} ms: ${countOf(r.listed, 'file')} listed, ${r.unchanged} unchanged, ${r.parsed} parsed, ${r.reused} reused, ${r.deleted} deleted.`,
    ];
    if (r.partial > 0) lines.push(`${countOf(r.partial, 'file')} not fully parsed (syntax errors or no parser for the language).`);
    const skipped = Object.entries(r.skipped).filter(([, n]) => (n ?? 0) > 0);
    for (const [reason, n] of skipped) {
      const examples = r.skippedExamples[reason] ?? [];
      lines.push(`Skipped ${n} (${reason})${examples.length ? `, e.g. ${formatNameList(examples, 3)}` : ''}.`);
    }
    return lines.join('\n');
  },
};
