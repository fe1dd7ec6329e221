/**
 * Run-wide token/cost accounting with an optional hard ceiling. Agents and
 * eval runs share one meter across every model they call, so a runaway loop
 * stops at the budget instead of at the invoice.
 */
import { ReponavError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ChatModel, ChatRequest, ChatResponse, ChatUsage } from './chat-model.js';
import { countOf } from '../plural.js';

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

/** The expected size of a call about to be made (see {@link UsageMeter.checkBefore}). */
export interface ExpectedCall {
  inputTokens: number;
  outputTokens: number;
  /** USD of a call that size, null when unknown. */
  costUsd: number | null;
}

/**
 * Accumulates usage and enforces a ceiling. The ceiling is checked before a
 * call starts, with the call's expected size ({@link checkBefore}), so a
 * call that would cross the limit is refused instead of paid for. A call
 * whose real size exceeds the estimate still delivers its answer; the next
 * call is refused. Concurrent calls may overshoot by the calls in flight.
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
    if (which !== null) this.refuse(which, null);
  }

  /**
   * Like {@link check}, and also refuses a call whose expected size would
   * carry the totals past a ceiling (the USD check needs `expected.costUsd`).
   */
  checkBefore(expected: ExpectedCall): void {
    this.check();
    const { maxTokens, maxCostUsd } = this.ceiling;
    const t = this.totals;
    if (maxTokens !== undefined && t.totalTokens + expected.inputTokens + expected.outputTokens > maxTokens) this.refuse('tokens', expected);
    if (maxCostUsd !== undefined && expected.costUsd !== null && t.costUsd + expected.costUsd > maxCostUsd) this.refuse('cost', expected);
  }

  /**
   * Expected output tokens of the next call: the mean of the calls so far,
   * or `fallback` before the first call (default 0: only the prompt's size is
   * known then); never above the request's cap.
   */
  expectedOutputTokens(cap: number | undefined, fallback = 0): number {
    const mean = this.totals.calls > 0 ? Math.round(this.totals.outputTokens / this.totals.calls) : fallback;
    return cap === undefined ? mean : Math.min(cap, mean);
  }

  private refuse(which: 'tokens' | 'cost', expected: ExpectedCall | null): never {
    const t = this.totals;
    const next = expected ? ` The next call (about ${expected.inputTokens + expected.outputTokens} tokens${expected.costUsd !== null ? `, $${expected.costUsd.toFixed(4)}` : ''}) would cross it, so it was not made.` : '';
    const message =
      which === 'tokens'
        ? `LLM token budget exhausted: ${t.totalTokens} tokens used of ${this.ceiling.maxTokens} allowed over ${countOf(t.calls, 'call')}.${next} Raise the token ceiling or shorten the run.`
        : `LLM cost budget exhausted: $${t.costUsd.toFixed(4)} spent of $${this.ceiling.maxCostUsd} allowed over ${countOf(t.calls, 'call')}.${next} Raise the USD ceiling or use a cheaper model.`;
    throw new ReponavError('BUDGET_EXCEEDED', message, { limit: which, beforeCall: expected !== null, ...this.snapshot(), ceiling: { ...this.ceiling } });
  }
}

/** Estimated tokens of a request's messages: the scaffold's ceil(characters / 4), plus a few per message for the chat framing. */
export function estimateRequestTokens(req: ChatRequest): number {
  return req.messages.reduce((sum, m) => sum + Math.ceil(m.content.length / 4) + 4, 0);
}

/**
 * Wrap `model` so each call first runs `meter.checkBefore()` with the call's
 * expected size (its prompt estimate plus the usual reply length; rejecting
 * with BUDGET_EXCEEDED when a ceiling is reached or would be crossed) and
 * records its usage on success. Same `id` as the wrapped model; failed calls
 * record nothing.
 */
export function withUsageMeter(model: ChatModel, meter: UsageMeter): ChatModel {
  return {
    id: model.id,
    ...(model.estimateCostUsd ? { estimateCostUsd: model.estimateCostUsd.bind(model) } : {}),
    async complete(req: ChatRequest): Promise<ChatResponse> {
      const size = { inputTokens: estimateRequestTokens(req), outputTokens: meter.expectedOutputTokens(req.maxTokens) };
      meter.checkBefore({ ...size, costUsd: model.estimateCostUsd?.(size) ?? null });
      const response = await model.complete(req);
      meter.record(model.id, response.usage);
      return response;
    },
  };
}
