/**
 * Token budgeting for everything the scaffold layer prints. Budgets are in
 * tokens of OpenAI's o200k_base encoding (GPT-4o and later), estimated without
 * the tokenizer: loading its 2.4 MB rank table costs a CLI process ~0.9 s, more
 * than a search. The estimate counts the pieces o200k's pre-tokenizer splits
 * text into (a cased word, 1-3 digits, a punctuation run, a whitespace run,
 * a non-ASCII character), a word per 5 letters and a punctuation run per 2
 * characters, times a safety factor measured so that o200k never counted more
 * (bench/budget-tokens.mjs and estimate-calibration.test.ts: at most 0.98 of
 * the estimate on ~2,300 windows of flask, yt-dlp and the bundled sample,
 * numbered or not, median 0.68). It is deterministic, needs no dependency,
 * and costs one regular-expression pass over the text.
 */

/** The measured safety factor over the piece count (see the module comment). */
export const TOKEN_SAFETY_FACTOR = 1.3;

/** Default output budget of every renderer, in o200k tokens (the paper's 1.5k). */
export const DEFAULT_BUDGET_TOKENS = 1500;

/** The pieces o200k's pre-tokenizer cuts text into, roughly; a single space or newline joins its neighbour. */
const PIECE = /[A-Z]*[a-z]+|[A-Z]+(?![a-z])|[0-9]{1,3}|[\x80-\uffff]|[^\sA-Za-z0-9\x80-\uffff]+|\s{2,}/g;

/** Letters per token of one word piece, characters per token of a punctuation run. */
const LETTERS_PER_TOKEN = 5;
const PUNCTUATION_PER_TOKEN = 2;

/** The unscaled piece count of `text`. */
function pieceCount(text: string): number {
  let count = 0;
  PIECE.lastIndex = 0;
  for (let match = PIECE.exec(text); match !== null; match = PIECE.exec(text)) {
    const piece = match[0];
    const code = piece.charCodeAt(0);
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) count += Math.ceil(piece.length / LETTERS_PER_TOKEN);
    else if (code < 128 && (code < 48 || code > 57) && code !== 32 && code !== 9 && code !== 10 && code !== 13) count += Math.ceil(piece.length / PUNCTUATION_PER_TOKEN);
    else count += 1;
  }
  return count;
}

/** Estimated o200k tokens of `text` (never fewer than o200k counts on the measured outputs). The empty string costs 0. */
export function estimateTokens(text: string): number {
  return Math.ceil(pieceCount(text) * TOKEN_SAFETY_FACTOR);
}

/**
 * Estimated cost of one line inside a multi-line text, counting its newline.
 * Summing this over lines never underestimates estimateTokens of the joined
 * text (no piece spans a line break except a whitespace run, which the
 * newline's own token pays for), which is what lets the accumulator guarantee
 * the budget.
 */
export function lineCost(line: string): number {
  return Math.ceil((pieceCount(line) + 1) * TOKEN_SAFETY_FACTOR);
}

/**
 * A line offered to the accumulator. A keyed line is shared between units (a
 * directory header, a section marker): it is paid for once, by the first unit
 * that needs it, and kept whenever any unit that needs it is kept.
 */
export type BudgetLine = string | { key: string; text: string };

/**
 * `stop`: the first unit that does not fit ends accumulation (prefix semantics,
 * for ranked lists where a later item must never appear without an earlier one).
 * `skip`: a unit that does not fit is skipped and smaller later units may still
 * fit (for prioritised units whose dependencies are expressed as keyed lines).
 */
export type FitMode = 'stop' | 'skip';

/** Accumulates whole units of lines while their summed lineCost stays within a capacity. */
export class LineAccumulator {
  private readonly kept: string[] = [];
  private readonly keySet = new Set<string>();
  private usedTokens = 0;
  private stopped = false;
  private leftOut = 0;

  constructor(
    private readonly capacityTokens: number,
    private readonly mode: FitMode = 'stop',
  ) {}

  /** Adds all lines of the unit if they fit; returns whether the unit was kept. */
  offer(lines: readonly BudgetLine[]): boolean {
    if (this.stopped) {
      this.leftOut++;
      return false;
    }
    const fresh: Array<{ key: string | null; text: string }> = [];
    const seenInUnit = new Set<string>();
    let cost = 0;
    for (const line of lines) {
      const key = typeof line === 'string' ? null : line.key;
      const text = typeof line === 'string' ? line : line.text;
      if (key !== null && (this.keySet.has(key) || seenInUnit.has(key))) continue;
      if (key !== null) seenInUnit.add(key);
      fresh.push({ key, text });
      cost += lineCost(text);
    }
    if (this.usedTokens + cost > this.capacityTokens) {
      this.leftOut++;
      if (this.mode === 'stop') this.stopped = true;
      return false;
    }
    for (const { key, text } of fresh) {
      if (key !== null) this.keySet.add(key);
      this.kept.push(text);
    }
    this.usedTokens += cost;
    return true;
  }

  /** True when a keyed line was kept. */
  has(key: string): boolean {
    return this.keySet.has(key);
  }

  /** Kept lines in the order they were first offered. */
  lines(): string[] {
    return [...this.kept];
  }

  get used(): number {
    return this.usedTokens;
  }

  /** Units refused so far (including every unit offered after a stop). */
  get unitsLeftOut(): number {
    return this.leftOut;
  }
}

/** One kind of thing a truncation line reports, e.g. `{ count: 2, singular: 'file', plural: 'files' }`. */
export interface CutCount {
  count: number;
  singular: string;
  plural: string;
}

/**
 * The single final line every renderer appends when it cut something, e.g.
 * `[TRUNCATED] 2 files and 5 symbols left out to stay within 1500 tokens`.
 * Zero counts are omitted.
 */
export function truncationLine(parts: readonly CutCount[], budgetTokens: number): string {
  const phrases = parts.filter((p) => p.count > 0).map((p) => `${p.count} ${p.count === 1 ? p.singular : p.plural}`);
  const what =
    phrases.length === 0
      ? 'output'
      : phrases.length === 1
        ? phrases[0]
        : `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]}`;
  return `[TRUNCATED] ${what} left out to stay within ${budgetTokens} tokens`;
}

/** Result of fitting ranked units into a budget. */
export interface FitResult {
  /** Kept lines in offer order (without the truncation line). */
  lines: string[];
  /** Per offered unit, whether it was kept. */
  keptUnits: boolean[];
  /** Keys of the kept keyed lines. */
  keys: Set<string>;
  /** False when everything fit. */
  truncated: boolean;
}

/**
 * Keeps every unit when the whole text fits `budgetTokens`; otherwise accumulates
 * units (in the given order and mode) within the budget minus the cost of
 * `worstCaseCut`, a truncation line rendered with counts at least as large as
 * the real ones, so the caller's final text (kept lines + the real truncation
 * line) is guaranteed to fit.
 */
export function fitUnits(
  units: readonly (readonly BudgetLine[])[],
  budgetTokens: number,
  mode: FitMode,
  worstCaseCut: string,
): FitResult {
  const all = new LineAccumulator(Number.POSITIVE_INFINITY, mode);
  for (const unit of units) all.offer(unit);
  if (estimateTokens(all.lines().join('\n')) <= budgetTokens) {
    return { lines: all.lines(), keptUnits: units.map(() => true), keys: keysOf(units), truncated: false };
  }
  const accumulator = new LineAccumulator(Math.max(0, budgetTokens - estimateTokens(worstCaseCut)), mode);
  const keptUnits = units.map((unit) => accumulator.offer(unit));
  const keys = new Set<string>();
  for (const unit of units) for (const line of unit) if (typeof line !== 'string' && accumulator.has(line.key)) keys.add(line.key);
  return { lines: accumulator.lines(), keptUnits, keys, truncated: true };
}

function keysOf(units: readonly (readonly BudgetLine[])[]): Set<string> {
  const keys = new Set<string>();
  for (const unit of units) for (const line of unit) if (typeof line !== 'string') keys.add(line.key);
  return keys;
}
