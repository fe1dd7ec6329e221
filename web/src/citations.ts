/**
 * Answer text with its `path:start-end` citations turned into code links.
 * The checked citations of the trace say where each one resolved and
 * whether it held up; a citation the checker rejected is shown struck
 * through with its reason.
 */
import type { TraceCitation } from '../../src/agents/ask/trace-types.js';
import { h, linkButton, type Child } from './dom.js';
import { nav } from './navigation.js';

/** `dir/file.ext:12-30` or `dir/file.ext:12` (a path with an extension, then lines). */
const CITATION = /([A-Za-z0-9_./@+-]*[A-Za-z0-9_-]\.[A-Za-z0-9]+):(\d+)(?:-(\d+))?/g;

/** One citation link; `checked` is the trace's verdict when it has one. */
export function citationLink(text: string, checked: TraceCitation | undefined): HTMLElement {
  const match = /^(.*):(\d+)(?:-(\d+))?$/.exec(text);
  const path = checked?.path ?? match?.[1] ?? text;
  const start = checked?.startLine ?? Number(match?.[2] ?? 1);
  const end = checked?.endLine ?? Number(match?.[3] ?? match?.[2] ?? start);
  const invalid = checked !== undefined && !checked.valid;
  return linkButton(text, () => nav().openCode({ path, start, end, symbol: checked?.names?.[0] }), {
    class: invalid ? 'citation invalid' : 'citation',
    title: invalid ? `rejected: ${checked.reason ?? 'invalid'}` : `Open ${path}:${start}-${end}`,
  });
}

/** `text` with every citation-shaped span linked. */
export function linkCitations(text: string, citations: readonly TraceCitation[]): Child[] {
  const byText = new Map(citations.map((c) => [c.text, c]));
  const out: Child[] = [];
  let last = 0;
  for (const match of text.matchAll(CITATION)) {
    out.push(text.slice(last, match.index));
    out.push(citationLink(match[0], byText.get(match[0])));
    last = match.index! + match[0].length;
  }
  out.push(text.slice(last));
  return out;
}

/** The checked citations as a list with verdicts. */
export function citationList(citations: readonly TraceCitation[], dropped: readonly TraceCitation[]): HTMLElement {
  const item = (c: TraceCitation, droppedFromAnswer: boolean) =>
    h(
      'li',
      { class: c.valid ? 'ok' : 'bad' },
      h('span', { class: 'verdict' }, c.valid ? '✓' : '✗'),
      citationLink(c.text, c),
      c.names?.length ? h('span', { class: 'muted small' }, ` ${c.names.join(', ')}`) : null,
      !c.valid && c.reason ? h('span', { class: 'reason' }, ` — ${c.reason}`) : null,
      droppedFromAnswer ? h('span', { class: 'muted small' }, ' (dropped from the answer)') : null,
    );
  return h('ul', { class: 'citations' }, citations.map((c) => item(c, false)), dropped.map((c) => item(c, true)));
}
