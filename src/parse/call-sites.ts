/**
 * The call sites of one name in one file, from the syntax tree: only real
 * call expressions count (the language query's `@call.name` captures), so a
 * definition of the name, a comment or a string that mentions it is never a
 * call site. Each site carries its receiver as written (`self.calculator` in
 * `self.calculator.compute(order)`, `Foo` in `Foo::bar()`, null for a plain
 * call), which find_references uses to decide whether the call can reach a
 * given definition. A second entry of the parse layer beside parse-source.ts:
 * importing it loads tree-sitter.
 */
import type { Node } from 'web-tree-sitter';
import { simpleName } from './capture-facts.js';
import { loadGrammar } from './grammar-loader.js';
import { languageForPath } from './languages.js';

/** One call of the name. */
export interface CallSite {
  /** 1-based line of the callee's name. */
  line: number;
  /** The receiver's text (whitespace collapsed), or null for a call with none. */
  receiver: string | null;
}

/** Member-access separators a receiver is written before: `.`, `?.`, `&.`, `->`, `::`, `\`. */
const SEPARATOR = /^([\s\S]*?)\s*(?:\?\.|&\.|\.|->|::|\\)\s*$/;

/** How far up the tree a receiver is looked for (Kotlin/Swift wrap the name in a navigation suffix). */
const MAX_RECEIVER_DEPTH = 4;

/**
 * The receiver of the call whose callee name is `name`: the text of the
 * nearest enclosing node that starts before the name and ends, just before it,
 * with a member-access separator. Null when the first text before the name is
 * anything else (`new `, `return `, an argument list): a plain call.
 */
function receiverOf(name: Node, source: string): string | null {
  let node: Node | null = name.parent;
  for (let depth = 0; node && depth < MAX_RECEIVER_DEPTH; depth++, node = node.parent) {
    const before = source.slice(node.startIndex, name.startIndex);
    if (before.trim() === '') continue;
    const match = SEPARATOR.exec(before);
    if (!match) return null;
    if (match[1].trim() !== '') return match[1].replace(/\s+/g, ' ').trim();
  }
  return null;
}

/**
 * Calls of `simple` in `text` (the file at `path`), in source order; null when
 * the file's language is not parsed. A qualified or templated callee counts by
 * its last simple name (`ns::f<int>()` is a call of `f`), as the index records callees.
 */
export async function callSitesOf(path: string, text: string, simple: string): Promise<CallSite[] | null> {
  const language = languageForPath(path);
  if (!language) return null;
  const grammar = await loadGrammar(language);
  const tree = grammar.parser.parse(text);
  if (!tree) return null;
  try {
    const sites: CallSite[] = [];
    const seen = new Set<number>();
    for (const { name, node } of grammar.query.captures(tree.rootNode)) {
      if (name !== 'call.name' || seen.has(node.startIndex) || simpleName(node.text) !== simple) continue;
      seen.add(node.startIndex);
      // The captured node may be the whole qualified callee (`ns::f`): its receiver is the part before the last name.
      const qualified = node.text !== simple ? qualifiedReceiver(node.text, simple) : null;
      sites.push({ line: node.startPosition.row + 1, receiver: qualified ?? receiverOf(node, text) });
    }
    return sites.sort((a, b) => a.line - b.line);
  } finally {
    tree.delete();
  }
}

/** `ns::A` for `ns::A::f` (callee text written with its qualifier), or null when nothing precedes the name. */
function qualifiedReceiver(callee: string, simple: string): string | null {
  const at = callee.lastIndexOf(simple);
  if (at <= 0) return null;
  const match = SEPARATOR.exec(callee.slice(0, at));
  return match && match[1].trim() !== '' ? match[1].trim() : null;
}
