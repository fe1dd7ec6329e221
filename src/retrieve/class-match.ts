/**
 * Which class of a file the query means. A file often holds many classes with
 * the same methods (twenty `*IE._real_extract` in one extractor module, one
 * `resolve` per resource type): BM25 scores the methods' bodies, which say
 * little about which class is meant, while the query usually names it
 * (`[BiliBili]` → `BiliBiliIE`, not `BilibiliSpaceVideoIE`). A class's name
 * parts that most classes of its file share (`IE`, `Pipeline`, `Resource`)
 * say nothing about which one is meant and are left out; the rest are matched
 * against the query's terms.
 */
import { codeTokens, type SymbolRow } from '../index/index.js';
import { TYPE_KINDS } from '../parse/index.js';

/** Name parts of a class (lower-cased, three letters or more; the whole name, when it has several parts, left out). */
function nameParts(name: string): string[] {
  const tokens = codeTokens(name);
  const parts = tokens.length > 1 ? tokens.slice(1) : tokens;
  return parts.filter((t) => t.length >= 3);
}

/**
 * For each class of a file, the share (0–1) of its distinctive name parts
 * that are query terms; 1 when its parts joined are one query term
 * (`BiliBiliIE` for `bilibili`). Classes with no part get no entry.
 */
export function classCoverage(symbols: readonly SymbolRow[], terms: ReadonlySet<string>): Map<string, number> {
  const classes = symbols.filter((s) => TYPE_KINDS.has(s.kind));
  const partsOf = new Map(classes.map((c) => [c.qualifiedName, nameParts(c.name)]));
  const shared = new Map<string, number>();
  for (const parts of partsOf.values()) for (const p of new Set(parts)) shared.set(p, (shared.get(p) ?? 0) + 1);
  // A part in more than half of the file's classes (and in at least 3 of them) tells none apart.
  const common = (p: string) => classes.length >= 3 && shared.get(p)! > classes.length / 2;
  const out = new Map<string, number>();
  for (const [name, parts] of partsOf) {
    if (parts.length === 0) continue;
    if (terms.has(parts.join(''))) {
      out.set(name, 1);
      continue;
    }
    const distinctive = [...new Set(parts)].filter((p) => !common(p));
    if (distinctive.length > 0) out.set(name, distinctive.filter((p) => terms.has(p)).length / distinctive.length);
  }
  return out;
}
