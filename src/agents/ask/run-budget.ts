/**
 * Hard ceilings on one answer's tokens and seconds. The search stops early
 * enough to leave a reserve for writing the answer; every model call also
 * carries an abort signal set to the hard deadline, so a slow call cannot
 * carry the run past it.
 */
import type { UsageMeter } from '../../llm/index.js';
import type { AskSettings } from './ask-settings.js';
import type { StopReason } from './trace-types.js';

/**
 * Thrown inside the search to end it for a budget, an abort or the shared
 * spend cap; the search catches it, records `reason` and writes the answer.
 */
export class SearchStop extends Error {
  constructor(readonly reason: StopReason) {
    super(`search stopped: ${reason}`);
    this.name = 'SearchStop';
  }
}

/** Options of a {@link RunBudget}. */
export interface RunBudgetOptions {
  settings: Pick<AskSettings, 'budgetTokens' | 'budgetSeconds' | 'answerReserve'>;
  /** The meter every call of this answer is recorded on. */
  meter: UsageMeter;
  /** Milliseconds clock; default `Date.now` (injectable so budgets are testable without sleeping). */
  clock?: () => number;
  /** The caller's cancellation. */
  signal?: AbortSignal;
}

/** Tokens and time of one answer against its ceilings. */
export class RunBudget {
  readonly startedAt: number;
  private readonly clock: () => number;

  constructor(private readonly options: RunBudgetOptions) {
    this.clock = options.clock ?? Date.now;
    this.startedAt = this.clock();
  }

  elapsedMs(): number {
    return this.clock() - this.startedAt;
  }

  tokensUsed(): number {
    return this.options.meter.snapshot().totalTokens;
  }

  /**
   * Why the search must stop now, or null: the caller aborted, the meter's
   * ceilings are reached, or tokens/seconds passed their share before the
   * answer reserve (`1 - answerReserve` of each budget).
   */
  searchStop(): StopReason | null {
    const { budgetTokens, budgetSeconds, answerReserve } = this.options.settings;
    if (this.options.signal?.aborted) return 'aborted';
    const exceeded = this.options.meter.exceeded();
    if (exceeded) return exceeded === 'tokens' ? 'budget-tokens' : 'budget-cost';
    if (budgetTokens !== undefined && this.tokensUsed() >= budgetTokens * (1 - answerReserve)) return 'budget-tokens';
    if (budgetSeconds !== undefined && this.elapsedMs() >= budgetSeconds * 1000 * (1 - answerReserve)) return 'budget-seconds';
    return null;
  }

  /** Why no further call may start at all, or null (the hard ceilings). */
  hardStop(): StopReason | null {
    if (this.options.signal?.aborted) return 'aborted';
    const exceeded = this.options.meter.exceeded();
    if (exceeded) return exceeded === 'tokens' ? 'budget-tokens' : 'budget-cost';
    const { budgetSeconds } = this.options.settings;
    if (budgetSeconds !== undefined && this.elapsedMs() >= budgetSeconds * 1000) return 'budget-seconds';
    return null;
  }

  /** An abort signal for one call: the caller's signal and the hard deadline, whichever fires first. */
  callSignal(): AbortSignal | undefined {
    const signals: AbortSignal[] = [];
    if (this.options.signal) signals.push(this.options.signal);
    const { budgetSeconds } = this.options.settings;
    if (budgetSeconds !== undefined) signals.push(AbortSignal.timeout(Math.max(1, budgetSeconds * 1000 - this.elapsedMs())));
    if (signals.length === 0) return undefined;
    return signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  }
}
