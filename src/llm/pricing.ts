/**
 * Per-call cost from a small price table. Prices drift, so the built-in table
 * only covers a few well-known hosted models and every entry can be replaced
 * or extended from config; anything unknown (local models, new releases)
 * costs `null` rather than a guess.
 */

/** Price of one model in USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** Model name (without provider prefix) → price. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Built-in list prices (USD / 1M tokens, standard tier, no caching or batch
 * discounts) as published by the vendors in 2025. Verify before relying on
 * them for billing; override from config when they change.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2 },
  'gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  'o3-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'claude-opus-4-1': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4 },
});

/**
 * The default table with `overrides` merged on top (an override replaces the
 * whole entry for that name). Throws on negative or non-finite prices so a
 * config typo cannot silently zero out a budget.
 */
export function createPriceTable(overrides: Readonly<Record<string, ModelPrice>> = {}): PriceTable {
  for (const [name, price] of Object.entries(overrides)) {
    if (!(isPrice(price.inputPerMTok) && isPrice(price.outputPerMTok))) {
      throw new RangeError(`Invalid price for model "${name}": prices must be finite numbers >= 0 (USD per million tokens)`);
    }
  }
  return Object.freeze({ ...DEFAULT_PRICES, ...overrides });
}

// Dated snapshots ("gpt-4o-mini-2024-07-18", "claude-sonnet-4-5-20250929") and
// "-latest" aliases are priced like their base name; other suffixes
// ("gpt-4o-audio-preview") are different products and stay unknown.
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * Price for `model`, or undefined. Tries the exact name, then without a
 * `vendor/` prefix (OpenRouter style, e.g. `openai/gpt-4o-mini`), each with
 * a snapshot/`-latest` suffix removed.
 */
export function lookupPrice(model: string, table: PriceTable = DEFAULT_PRICES): ModelPrice | undefined {
  const names = [model];
  const slash = model.lastIndexOf('/');
  if (slash >= 0) names.push(model.slice(slash + 1));
  for (const name of names) {
    const price = table[name] ?? table[name.replace(SNAPSHOT_SUFFIX, '')];
    if (price) return price;
  }
  return undefined;
}

/** Cost in USD of one call, or null when the model is not in the table. */
export function costOf(
  model: string,
  tokens: { inputTokens: number; outputTokens: number },
  table: PriceTable = DEFAULT_PRICES,
): number | null {
  const price = lookupPrice(model, table);
  if (!price) return null;
  return (tokens.inputTokens * price.inputPerMTok + tokens.outputTokens * price.outputPerMTok) / 1_000_000;
}

function isPrice(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
