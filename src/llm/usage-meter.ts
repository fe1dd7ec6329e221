/**
 * Run-wide token/cost accounting with an optional hard ceiling. Agents and
 * eval runs share one meter across every model they call, so a runaway loop
 * stops at the budget instead of at the invoice.
 */
import { ReponavError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ChatModel, ChatRequest, ChatResponse, ChatUsage } from './chat-model.js';

/** Budget limits; either, both or neither may be set. */
export interface UsageCeiling {
  /** Max input + output tokens across the run. */
  maxTokens?: number;
  /** Max spend in USD across the run (only priced calls count, see `unpricedCalls`). */
  maxCostUsd?: number;
}

/** Totals for one model id, or for the whole run. */
export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Sum over priced calls only. */
  costUsd: number;
  /** Calls whose cost is unknown (model not in the price table). */
  unpricedCalls: number;
}

/** A point-in-time copy of the meter: run totals plus a per-model breakdown. */
export interface UsageSnapshot extends UsageTotals {
  byModel: Record<string, UsageTotals>;
}

function emptyTotals(): UsageTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, unpricedCalls: 0 };
}

function add(totals: UsageTotals, usage: ChatUsage): void {
  totals.calls += 1;
  totals.inputTokens += usage.inputTokens;
  totals.outputTokens += usage.outputTokens;
  totals.totalTokens += usage.inputTokens + usage.outputTokens;
  if (usage.costUsd === null) totals.unpricedCalls += 1;
  else totals.costUsd += usage.costUsd;
}

/**
 * Accumulates usage and enforces a ceiling. The ceiling is checked before a
 * call starts, never after it returns: a call that crosses the limit still
 * delivers the answer already paid for, and the next call is refused.
 * Concurrent calls may overshoot by at most the calls already in flight.
 */
export class UsageMeter {
  readonly ceiling: Readonly<UsageCeiling>;
  private readonly totals = emptyTotals();
  private readonly perModel = new Map<string, UsageTotals>();
  private readonly logger: Logger;
  private warnedUnpriced = false;

  constructor(ceiling: UsageCeiling = {}, options: { logger?: Logger } = {}) {
    for (const [key, value] of Object.entries(ceiling)) {
      if (value !== undefined && !(typeof value === 'number' && value >= 0)) {
        throw new ReponavError('BAD_INPUT', `Usage ceiling ${key} must be a number >= 0, got ${String(value)}`);
      }
    }
    this.ceiling = Object.freeze({ ...ceiling });
    this.logger = options.logger ?? silentLogger;
  }

  /** Add one call's usage under `modelId`. */
  record(modelId: string, usage: ChatUsage): void {
    add(this.totals, usage);
    let model = this.perModel.get(modelId);
    if (!model) this.perModel.set(modelId, (model = emptyTotals()));
    add(model, usage);
    if (usage.costUsd === null && this.ceiling.maxCostUsd !== undefined && !this.warnedUnpriced) {
      this.warnedUnpriced = true;
      this.logger.warn(
        `Usage meter: ${modelId} has no known price, so its calls do not count toward the USD ceiling; add a price override or set a token ceiling.`,
      );
    }
  }

  /** A copy of the current totals. */
  snapshot(): UsageSnapshot {
    const byModel: Record<string, UsageTotals> = {};
    for (const [id, totals] of this.perModel) byModel[id] = { ...totals };
    return { ...this.totals, byModel };
  }

  /** Which limit is reached, or null. A limit counts as reached once usage meets it. */
  exceeded(): 'tokens' | 'cost' | null {
    const { maxTokens, maxCostUsd } = this.ceiling;
    if (maxTokens !== undefined && this.totals.totalTokens >= maxTokens) return 'tokens';
    if (maxCostUsd !== undefined && this.totals.costUsd >= maxCostUsd) return 'cost';
    return null;
  }

  /** Throw `ReponavError('BUDGET_EXCEEDED')` when a limit is reached; otherwise do nothing. */
  check(): void {
    const which = this.exceeded();
    if (which === null) return;
    const t = this.totals;
    const message =
      which === 'tokens'
        ? `LLM token budget exhausted: ${t.totalTokens} tokens used of ${this.ceiling.maxTokens} allowed over ${t.calls} calls. Raise the token ceiling or shorten the run.`
        : `LLM cost budget exhausted: $${t.costUsd.toFixed(4)} spent of $${this.ceiling.maxCostUsd} allowed over ${t.calls} calls. Raise the USD ceiling or use a cheaper model.`;
    throw new ReponavError('BUDGET_EXCEEDED', message, { limit: which, ...this.snapshot(), ceiling: { ...this.ceiling } });
  }
}

/**
 * Wrap `model` so each call first runs `meter.check()` (rejecting with
 * BUDGET_EXCEEDED once the ceiling is reached) and records its usage on
 * success. Same `id` as the wrapped model; failed calls record nothing.
 */
export function withUsageMeter(model: ChatModel, meter: UsageMeter): ChatModel {
  return {
    id: model.id,
    async complete(req: ChatRequest): Promise<ChatResponse> {
      meter.check();
      const response = await model.complete(req);
      meter.record(model.id, response.usage);
      return response;
    },
  };
}
