/**
 * Offsets (UTF-16 code units) where each line of `text` starts; `[0]` for an
 * empty text. Its length is the number of `\n`-separated lines
 * (`text.split('\n').length`), so line `n` (1-based) spans
 * `starts[n - 1]` up to the newline before `starts[n]`.
 */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
