/**
 * The SWE-QA harness: answer every question with the chosen method, score
 * each answer with the judges, and summarise. Resumable — one line per
 * question is appended (and fsynced) to `answers.jsonl`, and a re-run skips
 * the questions already answered; concurrent — N questions at a time, one
 * commit index per repository shared between them; and capped — one
 * UsageMeter with the USD ceiling spans the answering model and every judge.
 *
 * Output folder: `run.json` (the configuration, checked on resume),
 * `answers.jsonl`, `traces/<id>.json`, `summary.json`, `summary.md`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isReponavError } from '../../errors.js';
import { CommitIndexPool } from '../../index/index.js';
import type { ChatModel } from '../../llm/index.js';
import { UsageMeter, withUsageMeter } from '../../llm/index.js';
import { silentLogger, type Logger } from '../../logger.js';
import { RepositorySet } from '../../tools/index.js';
import { JsonlAppender, fileExists, readJsonlLines } from '../jsonl.js';
import { getReponavRevision } from '../report.js';
import { checkResumeSettings, type AllowedChange } from '../run-settings.js';
import type { SweqaAnswer, SweqaAnswerer } from './answerer.js';
import { commitExists, findRepoGitDir } from '../repo-lookup.js';
import { judgeAnswer, type JudgeResult } from './judge.js';
import { readRepoCommits, readSweqaQuestions, type SweqaQuestion } from './sweqa-questions.js';
import { buildSweqaSummary, latestRecords, renderSweqaMarkdown, unscoredReason, type SweqaRecord, type SweqaRunConfig, type SweqaSummary } from './sweqa-report.js';

/** Options of one run. */
export interface SweqaRunOptions {
  questionsPath: string;
  /** Folder of git dirs, looked up like the LocBench harness (`owner+name`, `owner__name`, `name`). */
  reposDir: string;
  /** `URL SHORT` per line; default: `sweqa-repo-commits.txt` beside the questions, when present. */
  commitsPath?: string;
  outDir: string;
  /** The answering method (eval's contract; the CLI passes the question-answering agent). */
  answerer: SweqaAnswerer;
  model: ChatModel;
  judges: readonly ChatModel[];
  /** Only the first N questions (file order). */
  limit?: number;
  /** Questions answered at once (default 1). */
  concurrency?: number;
  /** Spend cap in USD of this invocation over answering and judging (priced models only); a resumed run starts from 0 again. */
  maxUsd?: number;
  /** Folder for the per-repository commit indexes; default: the user cache. */
  indexDir?: string;
  logger?: Logger;
  signal?: AbortSignal;
  /** Called after each question is recorded. */
  onProgress?: (done: number, total: number, record: SweqaRecord) => void;
  /**
   * Facts about the models that the ids do not say (provider, base URL host
   * of the answering model and each judge); recorded in run.json and checked on resume.
   */
  models?: Record<string, unknown>;
  /** Resume even when the recorded settings differ (the differences are recorded in run.json). */
  allowChangedSettings?: boolean;
  /** The reponav revision to record; default: read from the package's git checkout. */
  reponavRevision?: string | null;
}

/** What a run produced. */
export interface SweqaRunResult {
  summary: SweqaSummary;
  markdown: string;
  paths: { run: string; answers: string; traces: string; summaryJson: string; summaryMd: string };
  /** Questions answered (and judged) in this invocation. */
  answeredThisRun: number;
  /** Unscored answers of an earlier invocation judged again in this one (not answered again). */
  rejudged: number;
  /** Questions already scored (or answered, for the re-judged) before this invocation. */
  resumed: number;
  stoppedForBudget: boolean;
  interrupted: boolean;
}

/** Runs (or resumes) the benchmark; see the module comment. Throws BAD_INPUT when `outDir` holds a run with another configuration. */
export async function runSweqa(options: SweqaRunOptions): Promise<SweqaRunResult> {
  const logger = options.logger ?? silentLogger;
  const outDir = resolve(options.outDir);
  const paths = {
    run: join(outDir, 'run.json'),
    answers: join(outDir, 'answers.jsonl'),
    traces: join(outDir, 'traces'),
    summaryJson: join(outDir, 'summary.json'),
    summaryMd: join(outDir, 'summary.md'),
  };
  mkdirSync(paths.traces, { recursive: true });
  const config: SweqaRunConfig = {
    method: options.answerer.method,
    model: options.model.id,
    judges: options.judges.map((j) => j.id),
    settings: { ...options.answerer.settings },
    questions: resolve(options.questionsPath),
    models: options.models ?? {},
    reponav: options.reponavRevision !== undefined ? options.reponavRevision : (await getReponavRevision()).revision,
  };
  const allowedChanges = checkRunConfig(paths.run, config, options.allowChangedSettings ?? false);
  if (allowedChanges.length > 0) config.allowedChanges = allowedChanges;
  writeFileSync(paths.run, `${JSON.stringify(config, null, 2)}\n`);

  const { questions, malformed } = await readSweqaQuestions(options.questionsPath);
  for (const m of malformed) logger.warn(`sweqa: ${options.questionsPath} line ${m.lineNumber} skipped: ${m.reason}`);
  const selected = options.limit !== undefined ? questions.slice(0, options.limit) : questions;
  const previous = latestRecords(await readRecords(paths.answers));
  // Scored answers are final; an unscored answer is judged again (not answered again); everything else is redone.
  const finished = new Set(previous.filter((r) => r.status === 'ok').map((r) => r.id));
  const unscored = new Map(previous.filter((r) => r.status === 'unscored' && r.answer !== null).map((r) => [r.id, r]));
  const todo = selected.filter((q) => !finished.has(q.id));
  const commits = loadCommits(options);

  const shared = new UsageMeter(options.maxUsd !== undefined ? { maxCostUsd: options.maxUsd } : {}, { logger });
  const model = withUsageMeter(options.model, shared);
  const repositories = new RepositoryCache(options, commits, logger);
  const appender = JsonlAppender.open(paths.answers);
  let done = 0;
  let rejudged = 0;
  let stoppedForBudget = false;
  const queue = [...todo];
  const worker = async () => {
    while (queue.length > 0 && !stoppedForBudget && !options.signal?.aborted) {
      if (shared.exceeded()) {
        stoppedForBudget = true;
        break;
      }
      const question = queue.shift()!;
      const earlier = unscored.get(question.id);
      const context = { options, model, shared, repositories, paths, logger };
      const record = earlier ? await judgeAgain(question, earlier, context) : await answerOne(question, context);
      appender.append(record);
      if (earlier) rejudged += 1;
      if (record.status === 'budget') stoppedForBudget = true;
      done += 1;
      options.onProgress?.(done, todo.length, record);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  } finally {
    appender.close();
    await repositories.close();
  }

  const all = await readRecords(paths.answers);
  const selectedIds = new Set(selected.map((q) => q.id));
  const summary = buildSweqaSummary(config, all.filter((r) => selectedIds.has(r.id)));
  const markdown = renderSweqaMarkdown(summary);
  writeFileSync(paths.summaryJson, `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(paths.summaryMd, markdown);
  if (stoppedForBudget) logger.warn(`sweqa: spend cap of $${options.maxUsd} reached; re-run with a higher --max-usd to continue`);
  return {
    summary,
    markdown,
    paths,
    answeredThisRun: done - rejudged,
    rejudged,
    resumed: selected.length - todo.length,
    stoppedForBudget,
    interrupted: options.signal?.aborted ?? false,
  };
}

interface AnswerContext {
  options: SweqaRunOptions;
  model: ChatModel;
  shared: UsageMeter;
  repositories: RepositoryCache;
  paths: SweqaRunResult['paths'];
  logger: Logger;
}

/** Answers and judges one question; never throws (failures become the record's status). */
async function answerOne(q: SweqaQuestion, ctx: AnswerContext): Promise<SweqaRecord> {
  const { options } = ctx;
  const started = Date.now();
  const record: SweqaRecord = {
    id: q.id,
    repo: q.repo,
    commit: null,
    qtype: q.qtype,
    status: 'error',
    method: options.answerer.method,
    model: options.model.id,
    question: q.question,
    answer: null,
    answerChars: 0,
    citations: 0,
    droppedCitations: 0,
    stopReason: null,
    cost: null,
    judgeCost: null,
    judges: [],
    scores: null,
    total: null,
    elapsedMs: 0,
    at: new Date().toISOString(),
  };
  try {
    const { answerer } = options;
    let repository: { set: RepositorySet; commit: string } | undefined;
    let release = (): void => undefined;
    if (answerer.readsRepository) {
      const opened = await ctx.repositories.get(q);
      if (!opened.ok) return { ...record, status: 'skipped', reason: opened.reason, elapsedMs: Date.now() - started };
      record.commit = opened.commit;
      repository = { set: opened.set, commit: opened.commit };
      release = opened.release;
    }
    let result: SweqaAnswer;
    try {
      result = await answerer.answer({
        question: q.question,
        model: ctx.model,
        ...(repository ? { repository } : {}),
        repositoryLabel: q.repo,
        logger: ctx.logger,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } finally {
      release();
    }
    await result.writeTrace(join(ctx.paths.traces, `${q.id.replace(/[^\w.-]/g, '_')}.json`));
    Object.assign(record, {
      answer: result.answer,
      answerChars: result.answer.length,
      citations: result.citations,
      droppedCitations: result.droppedCitations,
      stopReason: result.stopReason,
      cost: result.cost,
    });
    // An interrupted answer is not judged: it is not finished, and a resumed run redoes it.
    if (result.interrupted) return { ...record, status: 'error', reason: 'interrupted', elapsedMs: Date.now() - started };
    // A model outage is no answer: never judged, never scored; a resumed run answers it again.
    if (result.modelFailure !== null) {
      ctx.logger.warn(`sweqa: question ${q.id}: ${result.modelFailure}`);
      return { ...record, status: 'error', reason: `llm-error: ${result.modelFailure}`, elapsedMs: Date.now() - started };
    }
    if (result.spendCapFallback) {
      return { ...record, status: 'budget', reason: 'spend cap reached while answering', elapsedMs: Date.now() - started };
    }
    return { ...(await judgeRecord(q, record, ctx)), elapsedMs: Date.now() - started };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const status = isReponavError(error, 'BUDGET_EXCEEDED') ? 'budget' : 'error';
    if (status === 'error') ctx.logger.warn(`sweqa: question ${q.id} failed: ${message}`);
    return { ...record, status, reason: message, elapsedMs: Date.now() - started };
  }
}

/** Scores `record.answer` with the judges: `ok`, or `unscored` with the judges' errors as the reason. Throws BUDGET_EXCEEDED. */
async function judgeRecord(q: SweqaQuestion, record: SweqaRecord, ctx: AnswerContext): Promise<SweqaRecord> {
  const judgeMeter = new UsageMeter();
  let judged: JudgeResult;
  try {
    judged = await judgeAnswer(
      ctx.options.judges.map((j) => withUsageMeter(withUsageMeter(j, ctx.shared), judgeMeter)),
      { question: q.question, reference: q.reference, candidate: record.answer ?? '' },
    );
  } finally {
    const s = judgeMeter.snapshot();
    record.judgeCost = { calls: s.calls, totalTokens: s.totalTokens, costUsd: s.calls > 0 && s.unpricedCalls === s.calls ? null : Math.round(s.costUsd * 1e9) / 1e9 };
  }
  const { reason: _previousReason, ...rest } = record;
  const out: SweqaRecord = { ...rest, judges: judged.verdicts, scores: judged.scores, total: judged.total, status: judged.scores ? 'ok' : 'unscored' };
  if (!judged.scores) out.reason = unscoredReason(judged.verdicts);
  return out;
}

/** Judges an earlier invocation's unscored answer again, keeping the answer, its cost and its trace; never throws. */
async function judgeAgain(q: SweqaQuestion, earlier: SweqaRecord, ctx: AnswerContext): Promise<SweqaRecord> {
  const started = Date.now();
  try {
    const judged = await judgeRecord(q, { ...earlier, at: new Date().toISOString() }, ctx);
    return { ...judged, elapsedMs: earlier.elapsedMs + (Date.now() - started) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The answer stays unscored (judged again next time); a spend cap stops the run.
    return { ...earlier, status: isReponavError(error, 'BUDGET_EXCEEDED') ? 'budget' : 'unscored', reason: message, at: new Date().toISOString() };
  }
}

type OpenedRepository = { ok: true; set: RepositorySet; commit: string; release(): void } | { ok: false; reason: string };

/**
 * The questions' repositories at their commits, leased from the one commit
 * index pool (index/commit-index-pool.ts): concurrent questions at the same
 * commit share one index, and the open indexes stay bounded.
 */
class RepositoryCache {
  private readonly pool: CommitIndexPool;

  constructor(
    private readonly options: SweqaRunOptions,
    private readonly commits: Map<string, string>,
    logger: Logger,
  ) {
    this.pool = new CommitIndexPool({ indexDir: options.indexDir, logger });
  }

  /** The question's repository at its commit; release it when the question is answered. */
  async get(q: SweqaQuestion): Promise<OpenedRepository> {
    const repo = q.repo;
    const commit = this.commits.get(repo) ?? q.commit;
    if (!commit) return { ok: false, reason: `no commit known for ${repo} (add it to the commit list)` };
    const lookup = findRepoGitDir(this.options.reposDir, repo);
    if (!lookup.ok) return { ok: false, reason: lookup.reason };
    if (!(await commitExists(lookup.gitDir, commit))) return { ok: false, reason: `commit ${commit} not found in ${lookup.gitDir}` };
    const lease = await this.pool.acquire(lookup.gitDir, repo, commit);
    return { ok: true, set: RepositorySet.of([lease.index], [repo.split('/')[1] ?? repo]), commit, release: lease.release };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function loadCommits(options: SweqaRunOptions): Map<string, string> {
  if (options.commitsPath) return readRepoCommits(options.commitsPath);
  const beside = join(dirname(resolve(options.questionsPath)), 'sweqa-repo-commits.txt');
  return existsSync(beside) ? readRepoCommits(beside) : new Map();
}

async function readRecords(path: string): Promise<SweqaRecord[]> {
  if (!fileExists(path)) return [];
  const out: SweqaRecord[] = [];
  for await (const line of readJsonlLines(path)) {
    const v = line.ok ? (line.value as SweqaRecord) : null;
    if (v && typeof v.id === 'string' && typeof v.status === 'string') out.push(v);
  }
  return out;
}

/** Refuses to mix runs: the out folder's run.json must record the same settings (see eval/run-settings.ts); returns the allowed changes to record. */
function checkRunConfig(path: string, config: SweqaRunConfig, allow: boolean): AllowedChange[] {
  if (!existsSync(path)) return [];
  let previous: Record<string, unknown>;
  try {
    previous = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return []; // unreadable: it will be rewritten
  }
  return checkResumeSettings({ folder: dirname(path), previous, current: config as unknown as Record<string, unknown>, ignore: [], allow });
}
