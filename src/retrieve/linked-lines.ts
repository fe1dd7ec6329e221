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

/** One linked line range, its path as written in the URL (after `blob/<ref>/`) or in a diff's header. */
export interface LinkedLines {
  path: string;
  start: number;
  end: number;
  /** `link`: a blob permalink; `diff`: a changed line of a unified diff pasted in the query. */
  via?: 'link' | 'diff';
}

/** A function a query's link or pasted diff points into. */
export type LinkedSymbol = SymbolRow & { via: 'link' | 'diff' };

const BLOB_LINK = /https?:\/\/[^\s/]+\/(?:[^\s#]*?\/)?(?:-\/)?blob\/[^\s/#]+\/([^\s#?)\]>"']+)#L(\d+)(?:C\d+)?(?:-L?(\d+)(?:C\d+)?)?/g;

/** Every line-anchored blob link of a query (the path inside the repository, the line range). */
export function extractLinkedLines(text: string): LinkedLines[] {
  const out: LinkedLines[] = [];
  for (const m of text.matchAll(BLOB_LINK)) {
    const start = Number(m[2]);
    const end = m[3] ? Math.max(start, Number(m[3])) : start;
    out.push({ path: decodeURIComponent(m[1]!), start, end: Math.min(end, start + 200) });
  }
  return [...out, ...extractDiffLines(text)];
}

const DIFF_FILE = /^--- (?:a\/)?(\S+)/;
const HUNK = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;

/**
 * The changed lines of a unified diff the query pastes (a reporter's proposed
 * fix: `--- a/pkg/x.py`, `@@ -401,7 +397,7 @@`): per hunk, the old-file line
 * of its first removed line (or, for a pure insertion, the line it follows) —
 * the line a patch touches, as a permalink's `#L401` points at one.
 */
export function extractDiffLines(text: string): LinkedLines[] {
  const out: LinkedLines[] = [];
  let path: string | null = null;
  let line = 0;
  let first: number | null = null;
  let last = 0;
  const close = () => {
    if (path && first !== null) out.push({ path, start: first, end: Math.min(last, first + 200), via: 'diff' });
    first = null;
  };
  for (const raw of text.split('\n')) {
    const fileMatch = DIFF_FILE.exec(raw);
    if (fileMatch) {
      close();
      path = fileMatch[1] === '/dev/null' ? null : fileMatch[1]!;
      line = 0;
      continue;
    }
    const hunk = HUNK.exec(raw);
    if (hunk) {
      close();
      line = Number(hunk[1]);
      continue;
    }
    if (!path || line === 0) continue;
    const mark = raw[0];
    if (mark === '-' || mark === '+') {
      // An insertion touches the line before it; a removal the line itself.
      const at = mark === '-' ? line : Math.max(1, line - 1);
      if (first === null) first = at;
      last = Math.max(last, at);
      if (mark === '-') line++;
    } else if (mark === ' ' || raw === '') {
      line++;
    } else {
      close();
      line = 0;
    }
  }
  close();
  return out;
}

/**
 * The outermost functions (the unit an edit is reported against) containing
 * the first line of each link, in the indexed files `resolve` maps the
 * link's path to. A line in a class body outside its methods, or outside any
 * function, names nothing more specific than the file (which the written path
 * already boosts) and gives nothing here.
 */
export function linkedFunctions(store: IndexStore, links: readonly LinkedLines[], resolve: (written: string) => string[]): LinkedSymbol[] {
  const out = new Map<string, LinkedSymbol>();
  for (const link of links) {
    for (const path of resolve(link.path)) {
      const symbols = store.symbolsOf(path);
      const byName = new Map<string, SymbolRow>();
      for (const s of symbols) if (!byName.has(s.qualifiedName)) byName.set(s.qualifiedName, s);
      const containing = symbols.filter((s) => !TYPE_KINDS.has(s.kind) && s.startLine <= link.start && link.start <= s.endLine);
      for (const s of containing) {
        const unit = outermostFunction(s, byName);
        const key = `${path}:${unit.qualifiedName}`;
        // A permalink outranks a diff line on the same function (the link setting is the older one).
        if (out.get(key)?.via !== 'link') out.set(key, { ...unit, via: link.via ?? 'link' });
      }
    }
  }
  return [...out.values()];
}
