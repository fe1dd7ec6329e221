/**
 * What real models wrap around a Markdown answer, taken off before it is
 * shipped: a preamble line ("Sure! Here is the answer:", "**Answer:**"), a
 * fence around the whole answer (```markdown … ```), and a closing offer
 * ("Let me know if you need more details."). Only whole wrapping is removed:
 * a code block inside the answer stays.
 */

const PREAMBLE = /^(?:(?:sure|certainly|of course|okay|ok|absolutely|great)\b[^\n]*|here(?:'s| is| are)\b[^\n]*(?:answer|explanation|summary|response)[^\n]*|(?:#+\s*|\*\*)?(?:final\s+)?answer(?:\*\*)?\s*:?(?:\*\*)?)\s*$/i;
const CLOSING = /^(?:let me know\b|i hope this helps\b|hope this helps\b|feel free to\b|if you (?:have|need) (?:any )?(?:more|further|other)\b)[^\n]*$/i;
const WHOLE_FENCE = /^```[ \t]*(?:markdown|md|text|)[ \t]*\n([\s\S]*?)\n?```[ \t]*$/i;

/** The answer without wrapping (see the module comment); unchanged when there is none. */
export function cleanAnswerText(text: string): string {
  let out = text.trim();
  for (let pass = 0; pass < 3; pass++) {
    const before = out;
    const lines = out.split('\n');
    // A preamble line needs something after it: a one-line answer is never a preamble.
    if (lines.length > 1 && PREAMBLE.test(lines[0]!.trim())) out = lines.slice(1).join('\n').trim();
    const last = out.split('\n');
    if (last.length > 1 && CLOSING.test(last.at(-1)!.trim())) out = last.slice(0, -1).join('\n').trim();
    const fenced = WHOLE_FENCE.exec(out);
    if (fenced && !fenced[1]!.includes('```')) out = fenced[1]!.trim();
    if (out === before) break;
  }
  return out;
}
