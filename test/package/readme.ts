/**
 * Test support: code blocks read out of README.md (and docs/), so the tests run
 * exactly what a reader pastes.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A fenced code block: its info string (`sh`, `json`, …), its text, and the heading it stands under. */
export interface CodeBlock {
  lang: string;
  text: string;
  heading: string;
}

/** The text of a Markdown file of the project (`README.md`, `docs/x.md`). */
export function readDoc(relativePath = 'README.md'): string {
  return readFileSync(join(PROJECT_ROOT, relativePath), 'utf8');
}

/** Every fenced code block of `markdown`, in order, with the nearest heading above it. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let heading = '';
  let open: { lang: string; lines: string[] } | null = null;
  for (const line of markdown.split('\n')) {
    const fence = /^```(\S*)\s*$/.exec(line);
    if (open) {
      if (fence && fence[1] === '') {
        blocks.push({ lang: open.lang, text: open.lines.join('\n'), heading });
        open = null;
      } else open.lines.push(line);
    } else if (fence) open = { lang: fence[1], lines: [] };
    else if (/^#{1,6} /.test(line)) heading = line.replace(/^#+\s*/, '').trim();
  }
  if (open) throw new Error(`unclosed code fence under "${heading}"`);
  return blocks;
}

/** The one code block under `heading` whose text matches `marker`; throws when there is none or several. */
export function findBlock(markdown: string, heading: string, marker: RegExp | string): CodeBlock {
  const found = codeBlocks(markdown).filter(
    (b) => b.heading === heading && (typeof marker === 'string' ? b.text.includes(marker) : marker.test(b.text)),
  );
  if (found.length !== 1) throw new Error(`expected one code block under "${heading}" matching ${String(marker)}, found ${found.length}`);
  return found[0];
}
