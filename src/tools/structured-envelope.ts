/**
 * The MCP `structuredContent` of a tool with a documented JSON form, when the
 * server is asked for structured output (`reponav mcp --structured`).
 *
 * Claude Code, Codex and OpenCode hand the model `JSON.stringify(structuredContent)`
 * instead of the text whenever a result carries it (docs/mcp-tools.md, "What
 * the model receives"). So the envelope is built to be a good answer read as
 * JSON: its first field is `text`, the rendered answer (the scaffold with its
 * blocks), and the machine data follows only as far as the whole JSON stays
 * within the call's budget. Null fields are left out (the listed schema says
 * optional, not nullable: Inspector's portability check and strict clients
 * reject type unions with null).
 */
import { estimateTokens } from '../budget/index.js';
import { enforceBudget } from './output-budget.js';

/** What the envelope holds besides the data's own fields. */
export interface Envelope extends Record<string, unknown> {
  text: string;
  /** Present when machine data was left out to stay within the budget. */
  dataCut?: true;
}

/** Estimated tokens of the JSON a structuredContent-first client passes to the model. */
export function envelopeTokens(value: unknown): number {
  return estimateTokens(JSON.stringify(value));
}

/** Renders within a budget; called again with a smaller one when the escaped text does not fit. */
export type Rerender = (budgetTokens: number) => string;

/** What `,"dataCut":true` adds to an envelope's estimate, at most. */
const DATA_CUT_TOKENS = envelopeTokens({ dataCut: true });

/** Rounds of re-rendering before the text is cut at a line boundary instead. */
const RENDER_ROUNDS = 6;

/**
 * The text at the largest budget whose JSON string fits `budgetTokens`:
 * escaping (`\n`, `\"`) makes the JSON of a text cost more than the text. A
 * re-render keeps the answer's structure (every block, fewer entries); a text
 * that cannot be re-rendered (or still does not fit) is cut with its
 * `[TRUNCATED]` line.
 */
function fittedText(text: string, budgetTokens: number, rerender: Rerender | undefined): string {
  const cost = (t: string) => envelopeTokens({ text: t });
  let current = text;
  let inner = budgetTokens;
  for (let round = 0; rerender && round < RENDER_ROUNDS && cost(current) > budgetTokens; round++) {
    inner = Math.max(1, Math.floor((inner * budgetTokens) / cost(current)) - 1);
    current = rerender(inner);
  }
  while (cost(current) > budgetTokens && inner > 1) {
    inner = Math.max(1, Math.floor((inner * budgetTokens) / cost(current)) - 1);
    current = enforceBudget(current, inner);
  }
  return current;
}

/** `value` without null object fields, at any depth (arrays keep their items). */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== null) out[key] = withoutNulls(field);
  return out;
}

/** The largest non-empty array inside `node` (by JSON length), with its JSON length; the envelope's text is skipped. */
function largestArray(node: unknown, top = true): { array: unknown[]; size: number } | null {
  let best: { array: unknown[]; size: number } | null = null;
  const consider = (child: unknown) => {
    const found = largestArray(child, false);
    if (found && (!best || found.size > best.size)) best = found;
  };
  if (Array.isArray(node)) {
    if (node.length > 0) best = { array: node, size: JSON.stringify(node).length };
    for (const item of node) consider(item);
  } else if (node && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) if (!(top && key === 'text')) consider(child);
  }
  return best;
}

/**
 * The envelope `{ text, ...data }` within `budgetTokens` (estimated tokens of
 * its JSON): the text first, fitted (see fittedText); then the data, cut from
 * the end of its largest arrays (the lowest-ranked entries), then by its last
 * top-level fields, until the JSON fits; `dataCut: true` says data was left out.
 * `data` is the tool's JSON form (an object); it is not changed.
 */
export function structuredEnvelope(text: string, data: unknown, budgetTokens: number, rerender?: Rerender): Envelope {
  // Room for `"dataCut":true` is kept, so that a text that fits still fits once data is cut.
  const fitted = fittedText(text, budgetTokens - DATA_CUT_TOKENS, rerender);
  const fields = withoutNulls(data && typeof data === 'object' && !Array.isArray(data) ? data : {}) as Record<string, unknown>;
  delete fields.text;
  delete fields.dataCut;
  const envelope: Envelope = { text: fitted, ...fields };
  if (envelopeTokens(envelope) <= budgetTokens) return envelope;
  envelope.dataCut = true;
  while (envelopeTokens(envelope) > budgetTokens) {
    const largest = largestArray(envelope);
    if (largest) {
      // Drop a share of the entries at once on a long array (one JSON pass per cut is quadratic otherwise).
      const excess = envelopeTokens(envelope) - budgetTokens;
      const drop = Math.max(1, Math.min(largest.array.length, Math.floor(largest.array.length / 4), Math.ceil(excess / 50)));
      largest.array.splice(largest.array.length - drop, drop);
      continue;
    }
    const keys = Object.keys(envelope).filter((key) => key !== 'text' && key !== 'dataCut');
    if (keys.length === 0) break;
    delete envelope[keys[keys.length - 1]];
  }
  return envelope;
}
