/**
 * Counted nouns in messages: `1 file`, `2 files`, `1 reply`, `3 replies`. One
 * helper for every layer, so that no message says "1 files" or "after 1 attempts".
 */

/** `n` and the noun in the number it needs: `plural` when given, else the singular plus `s`. */
export function countOf(n: number, singular: string, plural: string = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
