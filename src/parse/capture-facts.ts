/**
 * Runs a language's compiled query once over a tree and groups the raw captures
 * into facts (definitions, imports, calls, comments) that the symbol builder
 * turns into the symbol model. Capture names are documented in `languages.ts`.
 */
import type { Node, Query } from 'web-tree-sitter';
import type { ImportRecord, SymbolKind } from './symbol-model.js';

/** `impl` is a scope that only attaches members to a type; it never becomes a symbol. */
export type DefinitionKind = SymbolKind | 'impl';

/** Everything the query said about one definition (all matches sharing one `@name` node). */
export interface DefinitionFact {
  kind: DefinitionKind;
  /** The widest `@definition.*` node seen for this name. */
  node: Node;
  nameNode: Node;
  receiver: string | null;
  bases: string[];
  docNode: Node | null;
  /** Index of the pattern that set `kind`: later patterns in the query file win. */
  kindPattern: number;
}

/** One call site: the callee's simple name, its receiver as written (null for a plain call) and where the name is written. */
export interface CallFact {
  name: string;
  receiver: string | null;
  index: number;
}

/** One comment, with the rows it covers (0-based). */
export interface CommentFact {
  startIndex: number;
  startRow: number;
  endRow: number;
  text: string;
}

/** The grouped result of one query run. */
export interface FileFacts {
  definitions: DefinitionFact[];
  imports: ImportRecord[];
  /** Sorted by position. */
  calls: CallFact[];
  /** Sorted by position. */
  comments: CommentFact[];
}

const DEFINITION_KINDS: ReadonlySet<string> = new Set([
  'class', 'interface', 'struct', 'enum', 'trait', 'module', 'type', 'function', 'method', 'impl',
]);

interface PendingImport {
  source: string;
  line: number;
  index: number;
  names: Array<{ text: string; index: number }>;
}

function toImportRecord(pending: PendingImport): ImportRecord {
  const names = [...pending.names].sort((a, b) => a.index - b.index).map((n) => n.text);
  return { source: pending.source, names: [...new Set(names)], line: pending.line };
}

/** Strips quotes / angle brackets that import paths are written with. */
function unquote(text: string): string {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (trimmed.length >= 2 && ((first === '<' && last === '>') || (`"'\``.includes(first!) && first === last))) {
    return trimmed.slice(1, -1);
  }
  return trimmed;
}

/**
 * The receiver's text; when the capture is the whole qualified declarator
 * (`ns::A::f`), the part before the name (`ns::A`).
 */
function receiverText(receiver: Node, name: Node): string {
  if (name.startIndex < receiver.startIndex || name.endIndex > receiver.endIndex) return receiver.text;
  return receiver.text.slice(0, name.startIndex - receiver.startIndex).replace(/(::|\.|->)\s*$/, '');
}

const SIMPLE = /^[\p{L}\p{N}_$!?]+$/u;
const GENERIC_ARGS = /<[^<>]*(?:<[^<>]*>[^<>]*)*>/g;

/** Last simple name of a possibly qualified / templated callee: `ns::max<int>` → `max`. */
export function simpleName(text: string): string {
  if (SIMPLE.test(text)) return text;
  const segments = text.replace(GENERIC_ARGS, '').split(/::|\.|->|\\/);
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i]!.trim();
    if (segment) return segment;
  }
  return '';
}

/** Member-access separators a receiver is written before: `.`, `?.`, `&.`, `->`, `::`, `\`. */
const SEPARATOR = /^([\s\S]*?)\s*(?:\?\.|&\.|\.|->|::|\\)\s*$/;

/** How far up the tree a receiver is looked for (Kotlin/Swift wrap the name in a navigation suffix). */
const MAX_RECEIVER_DEPTH = 4;

/** Receivers longer than this (a chained call spanning lines) are kept cut, and so never resolve to a definition. */
const MAX_RECEIVER_CHARS = 160;

/**
 * The receiver of the call whose callee name node is `name`, as written
 * (whitespace collapsed): the text of the nearest enclosing node that starts
 * before the name and ends, just before it, with a member-access separator; for
 * a callee captured with its qualifier (`ns::A::f`), the part before the last
 * name. Null when the first text before the name is anything else (`new `,
 * `return `, an argument list): a plain call.
 */
export function callReceiver(name: Node, source: string): string | null {
  const simple = simpleName(name.text);
  if (name.text !== simple) {
    const at = name.text.lastIndexOf(simple);
    const match = at > 0 ? SEPARATOR.exec(name.text.slice(0, at)) : null;
    if (match && match[1].trim() !== '') return clip(match[1]);
  }
  let node: Node | null = name.parent;
  for (let depth = 0; node && depth < MAX_RECEIVER_DEPTH; depth++, node = node.parent) {
    const before = source.slice(node.startIndex, name.startIndex);
    if (before.trim() === '') continue;
    const match = SEPARATOR.exec(before);
    if (!match) return null;
    if (match[1].trim() !== '') return clip(match[1]);
  }
  return null;
}

function clip(receiver: string): string {
  const text = collapse(receiver);
  return text.length > MAX_RECEIVER_CHARS ? `${text.slice(0, MAX_RECEIVER_CHARS)}…` : text;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Runs `query` over `root` (the tree of `source`) and groups captures. Imports keep statement order; two
 * captures of the same source in one statement merge their names.
 */
export function captureFacts(query: Query, root: Node, source: string): FileFacts {
  const definitions = new Map<number, DefinitionFact>();
  const imports = new Map<string, PendingImport>();
  const calls: CallFact[] = [];
  const comments: CommentFact[] = [];

  for (const match of query.matches(root)) {
    let defNode: Node | null = null;
    let defKind: DefinitionKind | null = null;
    let nameNode: Node | null = null;
    let receiverNode: Node | null = null;
    let docNode: Node | null = null;
    let importNode: Node | null = null;
    let importSource: string | null = null;
    let importSourceIndex = 0;
    let callName: Node | null = null;
    const bases: string[] = [];
    const importNames: Array<{ text: string; index: number }> = [];

    for (const { name, node } of match.captures) {
      switch (name) {
        case 'name': nameNode = node; break;
        case 'receiver': receiverNode = node; break;
        case 'base': bases.push(collapse(node.text)); break;
        case 'doc': docNode = node; break;
        case 'import': importNode = node; break;
        case 'import.source':
          importSource = unquote(node.text);
          importSourceIndex = node.startIndex;
          break;
        case 'import.name':
          // Wildcard spellings differ (`*`, Scala `_`); the record always says `*`.
          importNames.push({ text: /wildcard|asterisk/.test(node.type) ? '*' : collapse(node.text), index: node.startIndex });
          break;
        case 'call.name': callName = node; break;
        case 'comment':
          comments.push({
            startIndex: node.startIndex,
            startRow: node.startPosition.row,
            // Line comments may own their newline and so end at column 0 of the next row.
            endRow: node.endPosition.column === 0 && node.endPosition.row > node.startPosition.row
              ? node.endPosition.row - 1
              : node.endPosition.row,
            text: node.text,
          });
          break;
        default:
          if (name.startsWith('definition.')) {
            const kind = name.slice('definition.'.length);
            if (DEFINITION_KINDS.has(kind)) {
              defNode = node;
              defKind = kind as DefinitionKind;
            }
          }
      }
    }

    if (defNode && defKind && nameNode) {
      const receiver = receiverNode ? receiverText(receiverNode, nameNode) : null;
      const existing = definitions.get(nameNode.startIndex);
      if (!existing) {
        definitions.set(nameNode.startIndex, {
          kind: defKind, node: defNode, nameNode, receiver, bases, docNode, kindPattern: match.patternIndex,
        });
      } else {
        if (match.patternIndex > existing.kindPattern) {
          existing.kind = defKind;
          existing.kindPattern = match.patternIndex;
        }
        if (defNode.endIndex - defNode.startIndex > existing.node.endIndex - existing.node.startIndex) existing.node = defNode;
        existing.receiver ??= receiver;
        existing.docNode ??= docNode;
        for (const base of bases) if (!existing.bases.includes(base)) existing.bases.push(base);
      }
    }
    if (importNode && importSource !== null && importSource !== '') {
      const key = `${importNode.startIndex}\u0000${importSource}`;
      const entry = imports.get(key);
      if (!entry) {
        imports.set(key, { source: importSource, line: importNode.startPosition.row + 1, index: importSourceIndex, names: importNames });
      } else {
        entry.names.push(...importNames);
      }
    }
    if (callName) {
      const name = simpleName(callName.text);
      if (name) calls.push({ name, receiver: callReceiver(callName, source), index: callName.startIndex });
    }
  }

  calls.sort((a, b) => a.index - b.index);
  comments.sort((a, b) => a.startIndex - b.startIndex);
  // Names merged from several matches are ordered by position only per match, so sort
  // statements by where their source is written to stay deterministic.
  const importList = [...imports.values()].sort((a, b) => a.index - b.index).map(toImportRecord);
  return { definitions: [...definitions.values()], imports: importList, calls, comments };
}
