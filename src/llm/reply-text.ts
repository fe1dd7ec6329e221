/**
 * What a reply says, as every parser should see it. Reasoning models put a
 * draft before the answer — inline (`<think>…</think>`, `<thinking>`,
 * `<reasoning>`, or only a closing `</think>` when the chat template opened
 * the block in the prompt) or in a separate field (`reasoning_content`,
 * `reasoning`, Anthropic thinking blocks). A draft is not the answer: a drafted
 * action must never run, a drafted score never count. The providers split
 * the two here, so parsers get the answer and traces keep the reasoning.
 */

/** A reply split into the answer text and the reasoning that preceded it. */
export interface SplitReply {
  /** The reply without reasoning blocks, trimmed. */
  text: string;
  /** The reasoning blocks' text, joined; '' when there were none. */
  reasoning: string;
}

const TAGS = ['think', 'thinking', 'reasoning'] as const;
const CLOSED = new RegExp(`<(${TAGS.join('|')})>([\\s\\S]*?)</\\1>`, 'gi');
const OPEN_AT_START = new RegExp(`^\\s*<(${TAGS.join('|')})>([\\s\\S]*)$`, 'i');
const CLOSE_ONLY = new RegExp(`^([\\s\\S]*?)</(${TAGS.join('|')})>`, 'i');

/**
 * Removes inline reasoning blocks from `raw`. Closed blocks are removed
 * wherever they are; a reply that opens a block and never closes it (cut
 * while thinking) is all reasoning; a reply whose first tag is a closing one
 * (the template opened the block) has everything before it as reasoning.
 */
export function splitReasoning(raw: string): SplitReply {
  const reasoning: string[] = [];
  let text = raw;
  const closeOnly = CLOSE_ONLY.exec(text);
  if (closeOnly && !new RegExp(`<${closeOnly[2]}>`, 'i').test(closeOnly[1]!)) {
    reasoning.push(closeOnly[1]!.trim());
    text = text.slice(closeOnly[0].length);
  }
  text = text.replace(CLOSED, (_, _tag: string, body: string) => {
    reasoning.push(body.trim());
    return '';
  });
  const open = OPEN_AT_START.exec(text);
  if (open) {
    reasoning.push(open[2]!.trim());
    text = '';
  }
  return { text: text.trim(), reasoning: reasoning.filter(Boolean).join('\n\n') };
}
