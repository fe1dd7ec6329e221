/**
 * Reading a listwise ranking out of a model's reply. Models answer in many
 * shapes: `[3] > [1] > [2]`, a JSON array (`[3, 1, 2]`, `["[3]", "[1]"]`),
 * bare numbers (`3 > 1 > 2`), or the candidates' names. Identifiers outside
 * the window are ignored and counted; repeated ones count once (their first
 * place); missing ones keep their input order after the ranked ones. The text
 * given here is the reply without reasoning blocks (the providers strip them),
 * so a drafted ranking in a `<think>` block never counts.
 */

/** What a reply said about one window of `n` candidates. */
export interface ParsedRanking {
  /** A permutation of 0…n-1: the ranked positions first, then the missing ones in input order. */
  order: number[];
  /** How many distinct candidates the reply ranked (0: no ranking at all). */
  ranked: number;
  /** Identifiers or names the reply gave that are not in the window, as written (`[12]`, `"foo"`). */
  unknown: string[];
  /** Mentions of a candidate after its first. */
  repeated: number;
  /** Candidates the reply left out (placed after the ranked ones, in input order). */
  missing: number;
  /** Which shape the ranking was read from. */
  format: RankingFormat;
}

/** The reply shapes {@link parseRanking} reads. */
export type RankingFormat = 'bracketed' | 'json-array' | 'bare-numbers' | 'names' | 'none';

/**
 * Reads the ranking of a window of `n` candidates from `text`. `names` are
 * the candidates' ids (`path:qualifiedName`) in window order, matched when the
 * reply ranks by name instead of identifier. Never throws.
 */
export function parseRanking(text: string, n: number, names: readonly string[] = []): ParsedRanking {
  const mentions = bracketed(text) ?? jsonArray(text, names) ?? bareNumbers(text) ?? byName(text, names);
  const format: RankingFormat = mentions?.format ?? 'none';
  const seen = new Set<number>();
  const order: number[] = [];
  const unknown: string[] = [];
  let repeated = 0;
  for (const mention of mentions?.items ?? []) {
    if (mention.index === null || mention.index < 0 || mention.index >= n) {
      unknown.push(mention.written);
      continue;
    }
    if (seen.has(mention.index)) {
      repeated += 1;
      continue;
    }
    seen.add(mention.index);
    order.push(mention.index);
  }
  const ranked = order.length;
  for (let i = 0; i < n; i++) if (!seen.has(i)) order.push(i);
  return { order, ranked, unknown, repeated, missing: n - ranked, format };
}

interface Mention {
  /** 0-based position in the window, or null for a name that matches no candidate. */
  index: number | null;
  written: string;
}

type Mentions = { format: RankingFormat; items: Mention[] };

function ofNumber(written: string, value: number): Mention {
  return { index: Number.isInteger(value) ? value - 1 : null, written };
}

/** `[3] > [1] > [2]` (also inside fences, prose or JSON strings). */
function bracketed(text: string): Mentions | null {
  const items = [...text.matchAll(/\[\s*(\d{1,6})\s*\]/g)].map((m) => ofNumber(m[0], Number(m[1])));
  return items.length > 0 ? { format: 'bracketed', items } : null;
}

/** The first `[…]` span that parses as a JSON array of numbers or strings. */
function jsonArray(text: string, names: readonly string[]): Mentions | null {
  for (let start = text.indexOf('['); start >= 0; start = text.indexOf('[', start + 1)) {
    const end = text.indexOf(']', start);
    if (end < 0) return null;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, end + 1));
    } catch {
      continue;
    }
    if (!Array.isArray(value) || value.length === 0) continue;
    const items = value.map((item): Mention => {
      if (typeof item === 'number') return ofNumber(String(item), item);
      if (typeof item === 'string') {
        const numeric = /^\s*\[?\s*(\d{1,6})\s*\]?\s*$/.exec(item);
        if (numeric) return ofNumber(item, Number(numeric[1]));
        const named = nameIndex(item, names);
        return { index: named, written: JSON.stringify(item) };
      }
      return { index: null, written: JSON.stringify(item) };
    });
    return { format: 'json-array', items };
  }
  return null;
}

/** `3 > 1 > 2` or `3, 1, 2`: only when the reply is nothing but numbers and separators. */
function bareNumbers(text: string): Mentions | null {
  const body = text.replace(/^```[^\n]*\n|```\s*$/g, '').trim();
  if (!/^\d{1,6}(\s*(>|,|;|\n|\s)\s*\d{1,6})+$/.test(body) && !/^\d{1,6}$/.test(body)) return null;
  return { format: 'bare-numbers', items: [...body.matchAll(/\d{1,6}/g)].map((m) => ofNumber(m[0], Number(m[0]))) };
}

/** Candidates named by `path:qualifiedName` (or a unique qualified name), in the order the reply names them. */
function byName(text: string, names: readonly string[]): Mentions | null {
  const found: Array<{ at: number; index: number; written: string }> = [];
  names.forEach((name, index) => {
    let at = text.indexOf(name);
    if (at < 0) {
      const qualified = name.slice(name.lastIndexOf(':') + 1);
      const unique = names.filter((other) => other.endsWith(`:${qualified}`)).length === 1;
      if (unique) at = wordIndex(text, qualified);
    }
    if (at >= 0) found.push({ at, index, written: name });
  });
  if (found.length === 0) return null;
  found.sort((a, b) => a.at - b.at || a.index - b.index);
  return { format: 'names', items: found.map((f) => ({ index: f.index, written: f.written })) };
}

function nameIndex(item: string, names: readonly string[]): number | null {
  const exact = names.indexOf(item.trim());
  if (exact >= 0) return exact;
  const matches = names.map((name, i) => [name, i] as const).filter(([name]) => name.endsWith(`:${item.trim()}`) || name.endsWith(`.${item.trim()}`));
  return matches.length === 1 ? matches[0]![1] : null;
}

/** Index of `word` in `text` as a whole identifier (not inside a longer one), or -1. */
function wordIndex(text: string, word: string): number {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(?<![\\w.])${escaped}(?![\\w])`).exec(text);
  return match ? match.index : -1;
}
