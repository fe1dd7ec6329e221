/**
 * Counted nouns in messages: `1 file`, `2 files`, `1 reply`, `3 replies`, and
 * byte sizes (`16 KiB`). One helper for every layer, so that no message says
 * "1 files", "after 1 attempts" or "larger than 0 MB".
 */

/** `n` and the noun in the number it needs: `plural` when given, else the singular plus `s`. */
export function countOf(n: number, singular: string, plural: string = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A byte count in the largest binary unit that states it exactly (`1 MiB`, `512 KiB`, `1000 bytes`). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return countOf(bytes, 'byte');
}
