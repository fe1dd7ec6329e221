/**
 * Robust parsing of an LLM judge's scores. Judges are told to answer JSON
 * only and often do not: prose around the object, code fences, numbers as
 * strings ("15", "15/20", "8/10"), nested `{score: n}` objects, synonyms for
 * the dimension names, a missing or wrong total. Those are recovered here,
 * and every repair is reported as a flag so a summary can say how much of
 * the scoring needed it. Scores in another scale are not repaired: the parse
 * fails, and the judge is asked again.
 */
import * as z from '../../zod-mini.js';
import { jsonObjectSpans, parseJsonReply } from '../../llm/index.js';

/** The five SWE-QA judging dimensions, in report order. */
export const JUDGE_DIMENSIONS = ['correctness', 'completeness', 'relevance', 'clarity', 'reasoning'] as const;

/** One dimension. */
export type JudgeDimension = (typeof JUDGE_DIMENSIONS)[number];

/** Scores per dimension (1–20 each). */
export type DimensionScores = Record<JudgeDimension, number>;

/** Lowest and highest score of one dimension. */
export const DIMENSION_RANGE = { min: 1, max: 20 } as const;

/** A parsed judgement: `total` is always the sum of the dimension scores. */
export type JudgeParse =
  | { ok: true; scores: DimensionScores; total: number; flags: string[] }
  | { ok: false; error: string; flags: string[] };

const SYNONYMS: Record<string, JudgeDimension | 'total'> = {
  correctness: 'correctness',
  correct: 'correctness',
  accuracy: 'correctness',
  completeness: 'completeness',
  complete: 'completeness',
  coverage: 'completeness',
  relevance: 'relevance',
  relevancy: 'relevance',
  clarity: 'clarity',
  clear: 'clarity',
  reasoning: 'reasoning',
  logic: 'reasoning',
  reasoningquality: 'reasoning',
  total: 'total',
  totalscore: 'total',
  overall: 'total',
  overallscore: 'total',
  sum: 'total',
};

/**
 * `15`, `"15"`, `"15/20"`, `"15 points"`, `{score: 15}` → 15; a fraction is
 * converted by its own denominator to the 20-point scale (`"8/10"` → 16);
 * anything else → null.
 */
export function scoreValue(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const fraction = /(-?\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)/.exec(value);
    if (fraction) return fractionScore(Number(fraction[1]), Number(fraction[2]));
    const match = /-?\d+(?:\.\d+)?/.exec(value);
    return match ? Number(match[0]) : null;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    return scoreValue(o.score ?? o.value ?? o.points);
  }
  return null;
}

/** `n/d` on the 20-point scale; NaN (never in range) for a zero denominator. */
function fractionScore(n: number, d: number): number {
  return d > 0 ? (n / d) * DIMENSION_RANGE.max : Number.NaN;
}

function canonical(key: string): JudgeDimension | 'total' | null {
  return SYNONYMS[key.toLowerCase().replace(/[^a-z]/g, '')] ?? null;
}

/** Dimension values found in a JSON object, searching one level of nesting (`{"scores": {...}}`). */
function fromObject(value: Record<string, unknown>, found: Partial<Record<JudgeDimension | 'total', number>>): void {
  for (const [key, raw] of Object.entries(value)) {
    const name = canonical(key);
    if (name && found[name] === undefined) {
      const n = scoreValue(raw);
      if (n !== null) found[name] = n;
    } else if (!name && raw && typeof raw === 'object' && !Array.isArray(raw)) {
      fromObject(raw as Record<string, unknown>, found);
    }
  }
}

/** `Correctness: 15`, `**Clarity** - 12/20`, `"reasoning" = "14"` anywhere in the text. */
function fromText(text: string, found: Partial<Record<JudgeDimension | 'total', number>>): void {
  const pattern = /([A-Za-z][A-Za-z _]{2,24}?)["'*\s]*[:=\-–]\s*["'*]*\s*(-?\d+(?:\.\d+)?)(?:\s*\/\s*(\d+(?:\.\d+)?))?/g;
  for (const match of text.matchAll(pattern)) {
    const name = canonical(match[1]!.trim().split(/\s+/).pop() ?? '') ?? canonical(match[1]!);
    // A total's fraction (`Total: 78/100`) is a total, not a dimension score.
    if (name && found[name] === undefined) found[name] = match[3] !== undefined && name !== 'total' ? fractionScore(Number(match[2]), Number(match[3])) : Number(match[2]);
  }
}

/**
 * Parses a judge reply. Dimensions come from the first JSON object in the
 * text (fenced or bare), then from `name: number` patterns for any still
 * missing. A fraction is converted by its own denominator (`8/10` → 16);
 * scores are rounded to integers. A score outside 1–20 (another scale, e.g.
 * 0–100) fails the parse: it is never clamped into range and counted. A
 * missing total is computed (`total-computed`), a stated
 * total that disagrees with the sum is replaced (`total-mismatch`), and
 * recovery from prose is flagged (`from-text`). Fails when a dimension
 * cannot be found at all, and for a JSON object that is never closed (a cut
 * reply is never scored from its fragment).
 */
export function parseJudgeReply(text: string): JudgeParse {
  const flags: string[] = [];
  // An object that never closes is a cut reply whatever the endpoint said: its last number may be cut too.
  if (unterminatedObject(text)) return { ok: false, error: 'the JSON object is not closed (a cut reply)', flags };
  const found: Partial<Record<JudgeDimension | 'total', number>> = {};
  const json = parseJsonReply(text, z.record(z.string(), z.unknown()));
  if (json.ok) fromObject(json.value, found);
  if (JUDGE_DIMENSIONS.some((d) => found[d] === undefined)) {
    const before = JUDGE_DIMENSIONS.filter((d) => found[d] !== undefined).length;
    fromText(text, found);
    if (JUDGE_DIMENSIONS.filter((d) => found[d] !== undefined).length > before) flags.push('from-text');
  }
  const missing = JUDGE_DIMENSIONS.filter((d) => found[d] === undefined);
  if (missing.length > 0) return { ok: false, error: `no score for ${missing.join(', ')}`, flags };
  const outside = JUDGE_DIMENSIONS.filter((d) => !(Math.round(found[d]!) >= DIMENSION_RANGE.min && Math.round(found[d]!) <= DIMENSION_RANGE.max));
  if (outside.length > 0) {
    return { ok: false, error: `scores outside the ${DIMENSION_RANGE.min}–${DIMENSION_RANGE.max} scale (${outside.map((d) => `${d} ${found[d]}`).join(', ')}; another scale?)`, flags };
  }
  const scores = {} as DimensionScores;
  for (const d of JUDGE_DIMENSIONS) scores[d] = Math.round(found[d]!);
  const total = JUDGE_DIMENSIONS.reduce((sum, d) => sum + scores[d], 0);
  if (found.total === undefined) flags.push('total-computed');
  else if (Math.round(found.total) !== total) flags.push(`total-mismatch(${found.total}→${total})`);
  return { ok: true, scores, total, flags };
}

/** True when the text opens a JSON object (outside strings) that it never closes. */
function unterminatedObject(text: string): boolean {
  const open = text.indexOf('{');
  if (open < 0) return false;
  // The first balanced span starts at the first brace exactly when that brace is closed.
  const first = jsonObjectSpans(text).next();
  return first.done === true || !text.startsWith(first.value, open);
}
