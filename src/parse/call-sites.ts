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
import { callReceiver, simpleName } from './capture-facts.js';
import { loadGrammar } from './grammar-loader.js';
import { languageForPath } from './languages.js';

/** One call of the name. */
export interface CallSite {
  /** 1-based line of the callee's name. */
  line: number;
  /** The receiver's text (whitespace collapsed), or null for a call with none. */
  receiver: string | null;
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
      sites.push({ line: node.startPosition.row + 1, receiver: callReceiver(node, text) });
    }
    return sites.sort((a, b) => a.line - b.line);
  } finally {
    tree.delete();
  }
}
