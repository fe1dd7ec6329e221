/**
 * CANDIDATE_TARGETS: the short list of symbols the agent should consider
 * editing or reading next, in the order the evidence supports them.
 */
import type { ScaffoldAnchor, ScaffoldSymbolRef, ScaffoldTarget } from './scaffold-types.js';

/**
 * Up to `limit` (default 4) unique symbols: the anchors in anchor order, then
 * each anchor's same-file call neighbours (its callees in call order, then its
 * callers in file order, anchor by anchor), then the glimpse symbols in glimpse
 * order. `lookup` resolves a neighbour's qualified name to its span; names it
 * cannot resolve are skipped (they cannot be shown with a location).
 */
export function selectTargets(
  anchors: readonly ScaffoldAnchor[],
  glimpse: readonly ScaffoldSymbolRef[],
  lookup: (qualifiedName: string) => ScaffoldSymbolRef | undefined,
  limit = 4,
): ScaffoldTarget[] {
  const out: ScaffoldTarget[] = [];
  const seen = new Set<string>();
  const push = (ref: ScaffoldSymbolRef | undefined, source: ScaffoldTarget['source']) => {
    if (!ref || out.length >= limit || seen.has(ref.qualifiedName)) return;
    seen.add(ref.qualifiedName);
    out.push({ ...pickRef(ref), source });
  };
  for (const anchor of anchors) push(anchor, 'anchor');
  for (const anchor of anchors) {
    for (const name of anchor.invokes) push(lookup(name), 'neighbour');
    for (const name of anchor.invokedBy) push(lookup(name), 'neighbour');
  }
  for (const ref of glimpse) push(ref, 'glimpse');
  return out;
}

/** Copies only the ScaffoldSymbolRef fields, in a fixed key order (the JSON form relies on it). */
export function pickRef(ref: ScaffoldSymbolRef): ScaffoldSymbolRef {
  return {
    qualifiedName: ref.qualifiedName,
    kind: ref.kind,
    startLine: ref.startLine,
    endLine: ref.endLine,
    hitScore: ref.hitScore,
  };
}
