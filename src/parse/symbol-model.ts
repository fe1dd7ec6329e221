/**
 * The one symbol model shared by every language and every later stage.
 * Lines are 1-based and inclusive everywhere.
 */

/** Kinds of symbol the parsers emit. Type-like kinds come first. */
export type SymbolKind =
  | 'class'
  | 'interface'
  | 'struct'
  | 'enum'
  | 'trait'
  /** A named type that is none of the above: a type alias (`type Id = string`), a Go named type (`type Celsius float64`). */
  | 'type'
  | 'module'
  | 'function'
  | 'method'
  /** A heading of a prose file (Markdown, reStructuredText, plain text); see prose-outline.ts. Never stored in the index. */
  | 'section';

/**
 * Type-like kinds: those that can contain methods (used for qualified names and
 * module-level grouping), and `type`, which never holds any but is chunked,
 * ranked and found (`find class`) as a type.
 */
export const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set([
  'class',
  'interface',
  'struct',
  'enum',
  'trait',
  'module',
  'type',
]);

/** One definition found in a file. */
export interface CodeSymbol {
  /** Simple name as written, e.g. `method`. */
  name: string;
  /** Dotted name inside the file, e.g. `Outer.Inner.method`. Unique per file after de-duplication suffixes are NOT added: overloads share it. */
  qualifiedName: string;
  kind: SymbolKind;
  /** Qualified name of the enclosing type or function, or null at top level. */
  parent: string | null;
  startLine: number;
  endLine: number;
  /** The declaration's first line(s) up to the body, whitespace-collapsed, at most ~200 chars. */
  signature: string;
  /** First line of the docstring or of the comment directly above, or null. */
  doc: string | null;
  /** Names called inside this symbol's own body (not nested definitions), de-duplicated, in order of first appearance. */
  callees: string[];
  /**
   * The same calls with their receivers as written (`self.calc` in `self.calc.compute()`, `Foo` in
   * `Foo::bar()`, null for a plain call): each distinct pair once, in order of first appearance. Set
   * by the parser; a symbol without it (built by hand) has its `callees` read as written (`self.foo`).
   */
  calls?: CallRef[];
  /** Base classes / implemented interfaces as written (simple or dotted names). */
  bases: string[];
}

/** One call of a symbol's body: the callee's simple name and its receiver as written (null for a plain call). */
export type CallRef = [name: string, receiver: string | null];

/** One import statement. */
export interface ImportRecord {
  /** The module / path / package as written: `os.path`, `./util`, `java.util.List`, `.models`. */
  source: string;
  /** Names imported from it (`from x import a, b` → ['a','b']); empty for whole-module imports. */
  names: string[];
  line: number;
}

export type ParseStatus = 'ok' | 'partial' | 'unsupported' | 'failed';

/** Everything the parser knows about one file. */
export interface ParsedFile {
  path: string;
  language: string;
  /** sha1 of the raw bytes, hex. */
  contentHash: string;
  status: ParseStatus;
  /** Number of ERROR / MISSING nodes tree-sitter reported. */
  errorCount: number;
  /** True when the bytes were not valid UTF-8 and were decoded as Windows-1252 (Latin-1) instead (decode-source.ts). */
  decodedWithReplacement: boolean;
  lineCount: number;
  imports: ImportRecord[];
  symbols: CodeSymbol[];
  /** Why the parse failed (status `failed` only): the grammar or parser error, or a crashed parse worker. */
  failure?: string;
}
