import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { CommitIndexPool } from '../index/index.js';
import { DEFAULT_TUNING, rankerIdentity, searchWithTuning, type ChunkHit, type SearchResult, type TunedSearchOptions } from '../retrieve/index.js';
import type { IndexStore } from '../index/index.js';
import type { InstanceLocalizer, LocalizeInput, LocbenchLocalizerConfig, RawChunkHit } from './localizer.js';
import { RetrievalSettingsSchema, searchOptionsOf } from './retrieval-settings.js';
import { settingIssueMessage } from '../retrieve/tuning/index.js';

/**
 * A stage after retrieval (the model reranker): `prepare` runs while the
 * instance's index is leased and reads what it needs from it; the step it
 * returns runs after the lease is released (so model calls of one instance
 * overlap the next instance's retrieval) and may replace the functions.
 */
export interface AfterRetrieval {
  prepare(store: IndexStore, input: LocalizeInput, result: SearchResult): () => Promise<{ functions?: string[]; timings?: Record<string, number> }>;
}

/**
 * The retrieval-only localizer: one commit-mode index per repository, moved
 * from commit to commit (re-parsing only files whose blobs differ), then the
 * default search; files, modules and functions are written best first. Its
 * `runFacts` name the ranker and its model's sha256 (the plain mode has none).
 * With `after`, its step may reorder the functions (see {@link AfterRetrieval}).
 */
export async function createRetrievalLocalizer(config: LocbenchLocalizerConfig, logger: Logger = silentLogger, after?: AfterRetrieval): Promise<InstanceLocalizer> {
  const parsed = RetrievalSettingsSchema.safeParse(config.settings ?? {});
  if (!parsed.success) {
    throw new ReponavError('BAD_INPUT', `--config-json: ${parsed.error.issues.map(settingIssueMessage).join('; ')}.`);
  }
  const settings = parsed.data;
  const searchOptions = searchOptionsOf(settings);
  const limit = settings.maxPredictions ?? 50;
  // Recorded in run.json: a resume under another ranker or model file is refused (the settings can be equal, `{}`, across both).
  const runFacts = settings.queryMode === 'plain' ? {} : await rankerIdentity(searchOptions.ranker, searchOptions.rankerModel);
  // One index open at a time (memory stays flat across a long run), moved from
  // commit to commit by the pool; calls take turns, since the index follows one
  // commit at a time (a runner with --concurrency > 1 stays correct; retrieval
  // is CPU-bound anyway).
  const pool = new CommitIndexPool({ indexDir: settings.indexDir, maxOpen: 1, logger });
  let turn: Promise<unknown> = Promise.resolve();
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const result = turn.then(work, work);
    turn = result.catch(() => undefined);
    return result;
  };
  return {
    localize: async (input) => {
      const { prediction, next } = await serialized(async () => {
        const started = Date.now();
        const lease = await pool.acquire(input.gitDir, input.repo, input.commit);
        try {
          const indexed = Date.now();
          const result = await searchWithTuning(lease.index.store, input.query, searchOptions);
          const searched = Date.now();
          const recorded = settings.recordHits === undefined ? undefined : await recordRawHits(lease.index.store, input.query, searchOptions, result.hits, settings.recordHits);
          return {
            prediction: {
              // Documentation after every code file: the localizer answers an issue, where docs rank below code.
              found_files: [...new Set([...result.files.map((f) => f.path), ...(result.docs ?? []).map((d) => d.path)])].slice(0, limit),
              found_modules: result.modules.slice(0, limit).map((m) => `${m.path}:${m.qualifiedName}`),
              found_entities: result.functions.slice(0, limit).map((f) => `${f.path}:${f.qualifiedName}`),
              timings: { indexMs: indexed - started, searchMs: searched - indexed, parsedFiles: lease.report.parsed + lease.report.reused },
              ...recorded,
            },
            next: after?.prepare(lease.index.store, input, result),
          };
        } finally {
          lease.release();
        }
      });
      if (!next) return prediction;
      const stage = await next();
      return {
        ...prediction,
        ...(stage.functions ? { found_entities: stage.functions.slice(0, limit) } : {}),
        timings: { ...prediction.timings, ...stage.timings },
      };
    },
    close: () => pool.close(),
    runFacts,
  };
}

/**
 * The search's own raw hits (after priors and boosts, before file
 * aggregation) and, when `depth` is deeper than the search's, the hits of a
 * second search at `depth`; scores rounded to six significant digits to keep
 * the predictions file small.
 */
async function recordRawHits(
  store: IndexStore,
  query: string,
  options: TunedSearchOptions,
  hits: readonly ChunkHit[],
  depth: number,
): Promise<{ raw_hits: RawChunkHit[]; raw_hits_deep?: RawChunkHit[] }> {
  const compact = (list: readonly ChunkHit[]) => list.map((hit) => ({ path: hit.path, symbol: hit.symbol, score: Number(hit.score.toPrecision(6)) }));
  const ownDepth = options.aggregation?.topChunks ?? DEFAULT_TUNING.aggregation.topChunks;
  if (depth <= ownDepth) return { raw_hits: compact(hits.slice(0, depth)) };
  const deep = await searchWithTuning(store, query, { ...options, aggregation: { ...options.aggregation, topChunks: depth } });
  return { raw_hits: compact(hits), raw_hits_deep: compact(deep.hits) };
}
