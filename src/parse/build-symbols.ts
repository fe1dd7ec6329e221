/**
 * Turns query facts into the symbol model: nesting, qualified names, kinds, spans,
 * signatures, docs and callees. Nesting and call ownership come from one sweep over
 * definitions and calls sorted by position, so the cost is O(n log n) in the number
 * of captures, never a walk per symbol.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, DefinitionFact, DefinitionKind, FileFacts } from './capture-facts.js';
import type { LanguageSpec } from './languages.js';
import { TYPE_KINDS, type CallRef, type CodeSymbol, type SymbolKind } from './symbol-model.js';
import { CommentIndex, docstringLine, findBody, signatureText } from './symbol-text.js';

interface Draft {
  fact: DefinitionFact;
  name: string;
  /** Span of the definition proper: decides nesting and which calls it owns. */
  start: number;
  end: number;
  container: Draft | null;
  qualifiedName: string;
  parent: string | null;
  kind: DefinitionKind;
  callees: string[];
  calls: CallRef[];
  /** `name\u0000receiver` of each entry of `calls`, to keep them distinct without a scan. */
  callKeys: Set<string>;
  hasBody: boolean;
}

/** Per-language node type sets, precomputed once per spec. */
export interface SpecSets {
  wrappers: ReadonlySet<string>;
  signatureWrappers: ReadonlySet<string>;
  leadingAttributes: ReadonlySet<string>;
  bodyTypes: ReadonlySet<string>;
  signatureSkip: ReadonlySet<string>;
}

const specSetCache = new WeakMap<LanguageSpec, SpecSets>();

/** The spec's node type lists as sets (cached per spec object). */
export function specSets(spec: LanguageSpec): SpecSets {
  let sets = specSetCache.get(spec);
  if (!sets) {
    sets = {
      wrappers: new Set(spec.wrappers),
      signatureWrappers: new Set(spec.signatureWrappers),
      leadingAttributes: new Set(spec.leadingAttributes),
      bodyTypes: new Set(spec.bodyTypes),
      signatureSkip: new Set(spec.signatureSkip ?? []),
    };
    specSetCache.set(spec, sets);
  }
  return sets;
}

/** Simple type name from a written type: drops generics, pointers and references. */
function typeSegments(text: string): string[] {
  const withoutGenerics = text.replace(/<[^<>]*(?:<[^<>]*>[^<>]*)*>|\[[^\]]*\]/g, '');
  return withoutGenerics
    .replace(/[*&\s]|\bconst\b|\bmut\b/g, '')
    .split(/::|\./)
    .filter((segment) => segment !== '');
}

/**
 * Resolves a receiver (`ns::Outer::Inner`, `*Server[T]`) to the qualified name of a
 * type in this file when some suffix matches one, else to its last segment: leading
 * segments are usually namespaces, which are not symbols.
 */
function resolveReceiver(receiver: string, types: ReadonlySet<string>): string | null {
  const segments = typeSegments(receiver);
  if (segments.length === 0) return null;
  for (let i = 0; i < segments.length; i++) {
    const candidate = segments.slice(i).join('.');
    if (types.has(candidate)) return candidate;
  }
  return segments[segments.length - 1]!;
}

function isTypeLike(kind: DefinitionKind): boolean {
  return kind === 'impl' || TYPE_KINDS.has(kind as SymbolKind);
}

function holdsMethods(kind: DefinitionKind, spec: LanguageSpec): boolean {
  return kind === 'module' ? spec.moduleMembersAreMethods === true : isTypeLike(kind);
}

/** Grows `node` to wrappers that hold only this definition (decorators, `export`). */
function widen(node: Node, sets: SpecSets): { span: Node; signatureStart: number } {
  let span = node;
  let signatureStart = node.startIndex;
  for (let parent = span.parent; parent && sets.wrappers.has(parent.type); parent = span.parent) {
    let sameType = 0;
    for (const child of parent.namedChildren) if (child?.type === span.type) sameType++;
    if (sameType !== 1) break;
    span = parent;
    if (sets.signatureWrappers.has(parent.type)) signatureStart = parent.startIndex;
  }
  return { span, signatureStart };
}

/**
 * Moves a signature start past leading annotations (`@Override`, `[Obsolete]`), which
 * sit in the definition or its modifiers list, before the name.
 */
function skipAnnotations(node: Node, start: number, nameStart: number, skip: ReadonlySet<string>): number {
  if (skip.size === 0) return start;
  const scan = (parent: Node, depth: number): void => {
    const count = parent.childCount;
    for (let i = 0; i < count; i++) {
      const child = parent.child(i);
      if (!child || child.startIndex >= nameStart) return;
      if (skip.has(child.type)) start = Math.max(start, child.endIndex);
      else if (depth > 0 && child.childCount > 0) scan(child, depth - 1);
    }
  };
  scan(node, 1);
  return start;
}

function spanStartRow(span: Node, sets: SpecSets): number {
  let row = span.startPosition.row;
  if (sets.leadingAttributes.size === 0) return row;
  for (let sibling = span.previousNamedSibling; sibling && sets.leadingAttributes.has(sibling.type); sibling = sibling.previousNamedSibling) {
    row = sibling.startPosition.row;
  }
  return row;
}

function endLineOf(node: Node): number {
  const { row, column } = node.endPosition;
  // Some grammars end a node at column 0 of the following line (trailing newline).
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

function assignNames(drafts: readonly Draft[], types: ReadonlySet<string>, spec: LanguageSpec): void {
  for (const draft of drafts) {
    const { fact, container } = draft;
    let prefix: string | null = null;
    if (fact.receiver !== null) prefix = resolveReceiver(fact.receiver, types);
    else if (container) prefix = container.qualifiedName;
    if (fact.kind === 'impl') {
      // `impl Foo` inside `mod m` extends `m.Foo`; a path (`impl a::Foo`) is resolved like a receiver.
      const own = typeSegments(draft.name).join('.');
      draft.qualifiedName = container && !own.includes('.') ? `${container.qualifiedName}.${own}` : resolveReceiver(draft.name, types) ?? own;
      draft.parent = null;
      continue;
    }
    draft.qualifiedName = prefix ? `${prefix}.${draft.name}` : draft.name;
    draft.parent = prefix;
    if (fact.kind === 'function' || fact.kind === 'method') {
      const inType = fact.receiver !== null || (container !== null && holdsMethods(container.kind, spec));
      draft.kind = inType ? 'method' : 'function';
    }
  }
}

/** Assigns each draft its container and each call its owning draft in one sweep. */
function nest(drafts: readonly Draft[], calls: readonly CallFact[]): void {
  const stack: Draft[] = [];
  let c = 0;
  const ownCall = (limit: number) => {
    for (; c < calls.length && calls[c]!.index < limit; c++) {
      const call = calls[c]!;
      while (stack.length > 0 && stack[stack.length - 1]!.end <= call.index) stack.pop();
      const owner = stack[stack.length - 1];
      if (!owner || owner.kind === 'impl') continue;
      if (!owner.callees.includes(call.name)) owner.callees.push(call.name);
      const key = `${call.name}\u0000${call.receiver ?? ''}`;
      if (!owner.callKeys.has(key)) {
        owner.callKeys.add(key);
        owner.calls.push([call.name, call.receiver]);
      }
    }
  };
  for (const draft of drafts) {
    ownCall(draft.start);
    while (stack.length > 0 && stack[stack.length - 1]!.end <= draft.start) stack.pop();
    draft.container = stack[stack.length - 1] ?? null;
    stack.push(draft);
  }
  ownCall(Number.POSITIVE_INFINITY);
}

/** Input of {@link buildSymbols}. */
export interface BuildInput {
  facts: FileFacts;
  source: string;
  lineStarts: readonly number[];
  spec: LanguageSpec;
}

/**
 * Builds the file's symbols, sorted by start line then end line descending. Bodiless
 * declarations (prototypes, overload signatures) are dropped when a definition with
 * the same qualified name and kind has a body.
 */
export function buildSymbols({ facts, source, lineStarts, spec }: BuildInput): CodeSymbol[] {
  const sets = specSets(spec);
  const drafts: Draft[] = facts.definitions.map((fact) => ({
    fact,
    name: fact.nameNode.text,
    start: fact.node.startIndex,
    end: fact.node.endIndex,
    container: null,
    qualifiedName: '',
    parent: null,
    kind: fact.kind,
    callees: [],
    calls: [],
    callKeys: new Set(),
    hasBody: false,
  }));
  drafts.sort((a, b) => a.start - b.start || b.end - a.end);
  nest(drafts, facts.calls);

  // Receivers match against type names, which need one pass without receivers first.
  assignNames(drafts, new Set(), spec);
  const types = new Set(drafts.filter((d) => d.kind !== 'impl' && isTypeLike(d.kind)).map((d) => d.qualifiedName));
  assignNames(drafts, types, spec);

  const comments = new CommentIndex(facts.comments, source, lineStarts);
  const byQualified = new Map<string, CodeSymbol>();
  const symbols: Array<{ symbol: CodeSymbol; draft: Draft }> = [];
  for (const draft of drafts) {
    if (draft.kind === 'impl') continue;
    const { fact } = draft;
    const { span, signatureStart } = widen(fact.node, sets);
    const body = findBody(fact.node, fact.nameNode.endIndex, sets.bodyTypes);
    draft.hasBody = body !== null;
    let signatureEnd = body ? body.startIndex : fact.node.endIndex;
    let signatureTail = '';
    if (!body && TYPE_KINDS.has(draft.kind as SymbolKind)) {
      // Members not wrapped in a body node after the name (Go interfaces, C `typedef
      // struct {...} Name;`): stop at `{`, keeping the name when the braces precede it.
      const brace = source.indexOf('{', fact.node.startIndex);
      if (brace !== -1 && brace < signatureEnd) {
        signatureEnd = brace;
        if (brace < fact.nameNode.startIndex) signatureTail = ` ${draft.name}`;
      }
    }
    const startRow = spanStartRow(span, sets);
    const docstring = fact.docNode ? docstringLine(fact.docNode.text) : null;
    const symbol: CodeSymbol = {
      name: draft.name,
      qualifiedName: draft.qualifiedName,
      kind: draft.kind as SymbolKind,
      parent: draft.parent,
      startLine: startRow + 1,
      endLine: endLineOf(span),
      signature:
        signatureText(
          source,
          skipAnnotations(fact.node, signatureStart, fact.nameNode.startIndex, sets.signatureSkip),
          signatureEnd,
          facts.comments,
        ) + signatureTail,
      // A member written on its container's first line would steal the container's comment.
      doc: docstring ?? (draft.container && draft.container.fact.node.startPosition.row === startRow ? null : comments.docAbove(startRow)),
      callees: draft.callees,
      calls: draft.calls,
      bases: [...fact.bases],
    };
    symbols.push({ symbol, draft });
    if (TYPE_KINDS.has(symbol.kind) && !byQualified.has(symbol.qualifiedName)) byQualified.set(symbol.qualifiedName, symbol);
  }

  // `impl Trait for Type` / `extension Type: Proto` add bases to a type of this file.
  for (const draft of drafts) {
    if (draft.kind !== 'impl') continue;
    const target = byQualified.get(draft.qualifiedName);
    if (!target) continue;
    for (const base of draft.fact.bases) if (!target.bases.includes(base)) target.bases.push(base);
  }

  const withBody = new Set(symbols.filter((s) => s.draft.hasBody).map((s) => `${s.symbol.kind}\u0000${s.symbol.qualifiedName}`));
  const kept = symbols
    .filter((s) => s.draft.hasBody || !withBody.has(`${s.symbol.kind}\u0000${s.symbol.qualifiedName}`))
    .map((s) => s.symbol);
  kept.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  return kept;
}
