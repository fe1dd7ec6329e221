import type { Logger } from '../logger.js';
import { scoringWarm, warmScoring, type IdleWarmer, type WarmScoringOptions, type WarmScoringReport } from './lexical/index.js';
import { indexGeneration, type IndexStore } from './store/index.js';

/**
 * The idle-time warm-up of one index's scoring caches (scoring-warmup.ts):
 * at most one run at a time, none while the state's caches are still warm,
 * and a failure only costs speed (logged at debug level, reported as aborted).
 */
export class IdleWarmUp {
  private warming: { done: Promise<WarmScoringReport>; controller: AbortController } | null = null;

  /** `warmers` run at the end of each warm-up: the search layers' own per-state work. */
  constructor(
    private readonly logger: Logger,
    readonly warmers: readonly IdleWarmer[],
  ) {}

  /** Starts a warm-up of `store` (or joins the running one); resolves with what it did, never rejects. */
  run(store: IndexStore, options: Omit<WarmScoringOptions, 'signal'> = {}): Promise<WarmScoringReport> {
    if (this.warming) return this.warming.done;
    if (scoringWarm(store)) return Promise.resolve({ terms: 0, entries: 0, stopped: 'done', warmers: 0 });
    const controller = new AbortController();
    // One line per start, naming the state: a state warmed twice (or every call) shows in a debug log.
    this.logger.debug(`scoring warm-up of index state ${indexGeneration(store)} started`);
    const done = warmScoring(store, { warmers: this.warmers, ...options, signal: controller.signal })
      .then((report) => {
        this.logger.debug(`scoring caches warmed: ${report.terms} terms, ${report.entries} postings, ${report.warmers} warmers (${report.stopped})`);
        return report;
      })
      .catch((error: unknown): WarmScoringReport => {
        this.logger.debug(`scoring warm-up stopped: ${(error as Error).message}`);
        return { terms: 0, entries: 0, stopped: 'aborted', warmers: 0 };
      })
      .finally(() => {
        this.warming = null;
      });
    this.warming = { done, controller };
    return done;
  }

  /** Aborts the running warm-up, if any (on close). */
  stop(): void {
    this.warming?.controller.abort();
  }
}
