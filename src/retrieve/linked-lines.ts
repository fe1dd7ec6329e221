/**
 * Lines an issue links to: a permalink such as
 * `https://github.com/o/r/blob/<ref>/pkg/payload.py#L97` or `…#L424-L439`
 * (GitLab: `/-/blob/<ref>/path#L12-34`) points at the code the reporter was
 * reading, which is more specific than any word of the issue. The link's ref
 * may be a later commit than the one indexed, so its lines are approximate;
 * the function that contains them at the indexed commit is taken as meant.
 */
import type { IndexStore, SymbolRow } from '../index/index.js';
import { TYPE_KINDS } from '../parse/index.js';
import { outermostFunction } from './function-neighbours.js';

/** One linked line range, its path as written in the URL (after `blob/<ref>/`). */
export interface LinkedLines {
  path: string;
  start: number;
  end: number;
}

const BLOB_LINK = /https?:\/\/[^\s/]+\/(?:[^\s#]*?\/)?(?:-\/)?blob\/[^\s/#]+\/([^\s#?)\]>"']+)#L(\d+)(?:C\d+)?(?:-L?(\d+)(?:C\d+)?)?/g;

/** Every line-anchored blob link of a query (the path inside the repository, the line range). */
export function extractLinkedLines(text: string): LinkedLines[] {
  const out: LinkedLines[] = [];
  for (const m of text.matchAll(BLOB_LINK)) {
    const start = Number(m[2]);
    const end = m[3] ? Math.max(start, Number(m[3])) : start;
    out.push({ path: decodeURIComponent(m[1]!), start, end: Math.min(end, start + 200) });
  }
  return out;
}

/**
 * The outermost functions (the unit an edit is reported against) containing
 * the first line of each link, in the indexed files `resolve` maps the
 * link's path to. A line in a class body outside its methods, or outside any
 * function, names nothing more specific than the file (which the written path
 * already boosts) and gives nothing here.
 */
export function linkedFunctions(store: IndexStore, links: readonly LinkedLines[], resolve: (written: string) => string[]): SymbolRow[] {
  const out = new Map<string, SymbolRow>();
  for (const link of links) {
    for (const path of resolve(link.path)) {
      const symbols = store.symbolsOf(path);
      const byName = new Map<string, SymbolRow>();
      for (const s of symbols) if (!byName.has(s.qualifiedName)) byName.set(s.qualifiedName, s);
      const containing = symbols.filter((s) => !TYPE_KINDS.has(s.kind) && s.startLine <= link.start && link.start <= s.endLine);
      for (const s of containing) {
        const unit = outermostFunction(s, byName);
        out.set(`${path}:${unit.qualifiedName}`, unit);
      }
    }
  }
  return [...out.values()];
}
