/**
 * The language registry: which files are parsed, with which tree-sitter grammar,
 * and with which query file.
 *
 * ## Query capture conventions (`queries/<language>.scm`)
 *
 * Each language has exactly one query file. The extractor only understands these
 * capture names; anything else (e.g. `@_helper` used by predicates) is ignored.
 *
 * | capture                    | node                                                          |
 * | -------------------------- | ------------------------------------------------------------- |
 * | `@definition.<kind>`       | a definition; kind is a `SymbolKind` (`class`, `interface`, `struct`, `enum`, `trait`, `module`, `type`, `function`, `method`). `function` and `method` are interchangeable: the extractor decides by the direct container (a type → `method`). |
 * | `@definition.impl`         | a scope that is not a symbol but attaches its members to the type named by its `@name` (Rust `impl`, Swift `extension`). Its `@base` captures are added to that type's bases when the type is defined in the same file. |
 * | `@name`                    | the definition's name (required). All matches that share the same `@name` node describe the same definition, so extra patterns may add `@base` / `@doc` / `@receiver` facts; when they disagree on the kind, the pattern written last in the file wins (so specific patterns go after generic ones). |
 * | `@receiver`                | the type an out-of-body method belongs to (Go receiver, C++ `A::f` scope). |
 * | `@base`                    | one base class / implemented interface / embedded type, text as written. |
 * | `@doc`                     | a docstring literal (Python); otherwise the comment block above is used. |
 * | `@import`                  | an import statement / directive (its line is reported). |
 * | `@import.source`           | the module, path or package imported (quotes and `<>` are stripped). |
 * | `@import.name`             | a name imported from that source; `*` (or a wildcard node) means "everything". |
 * | `@call` + `@call.name`     | a call expression and the callee's simple name (`a.b.c(x)` → `c`, `new Foo()` → `Foo`). |
 * | `@comment`                 | any comment; used to find the comment block directly above a definition. |
 *
 * Namespaces / packages (C++, C#, PHP, Java, Kotlin) are deliberately not symbols:
 * they would prefix every qualified name without helping navigation. `@call` is
 * disabled after compiling (only `@call.name` is read) to save marshalling time.
 *
 * Lua is not supported: the only available grammar (tree-sitter-wasms, ABI 13)
 * mis-parses every file after the first one in a process under web-tree-sitter 0.25.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The languages the parser understands: a closed set. Every id has exactly one
 * entry in the registry below (checked when this file compiles) and one case in
 * each switch over languages (`resolveImport`), so a language added here
 * without its grammar, query and import rule fails to compile.
 */
export const LANGUAGE_IDS = [
  'python',
  'javascript',
  'typescript',
  'tsx',
  'java',
  'go',
  'rust',
  'c',
  'cpp',
  'csharp',
  'ruby',
  'php',
  'kotlin',
  'swift',
  'scala',
  'bash',
] as const;

/** A language id as stored in the index (`python`, `cpp`, ...). */
export type LanguageId = (typeof LANGUAGE_IDS)[number];

/** Static description of one supported language. */
export interface LanguageSpec {
  /** Stable id used throughout the index (`python`, `cpp`, ...). */
  readonly id: LanguageId;
  /** Lower-case file extensions including the dot. */
  readonly extensions: readonly string[];
  /** Exact base names that belong to the language regardless of extension (`Rakefile`). */
  readonly fileNames?: readonly string[];
  /** Module specifier of the grammar wasm, resolved with `require.resolve`. */
  readonly wasmModule: string;
  /** The query file's language id when it shares another's (TSX uses TypeScript's: the node types are the same). */
  readonly queryOf?: string;
  /**
   * Node types that wrap a single definition and belong to its span
   * (decorators, `export`, `template <...>`). The signature starts after them
   * unless the type is also in `signatureWrappers`.
   */
  readonly wrappers: readonly string[];
  /** Wrapper types whose text is part of the signature (`export const f = ...`). */
  readonly signatureWrappers: readonly string[];
  /** Sibling node types directly above a definition that belong to its span (Rust `#[...]`). */
  readonly leadingAttributes: readonly string[];
  /** Node types that start a definition body when the grammar has no `body` field for it. */
  readonly bodyTypes: readonly string[];
  /** Annotation / attribute node types left out of the start of a signature (`@Override`). */
  readonly signatureSkip?: readonly string[];
  /**
   * Whether functions directly inside a `module` symbol are methods (Ruby modules are
   * mixins of methods). Elsewhere (Rust `mod`, TS `namespace`) they stay functions.
   */
  readonly moduleMembersAreMethods?: boolean;
}

const VSCODE = '@vscode/tree-sitter-wasm/wasm/';
const WASMS = 'tree-sitter-wasms/out/';

const JS_WRAPPERS = ['export_statement', 'lexical_declaration', 'variable_declaration'];
const JS_BODIES = ['statement_block', 'class_body', 'object_type', 'interface_body', 'enum_body'];
const TS_WRAPPERS = [...JS_WRAPPERS, 'ambient_declaration'];

const REGISTRY = [
  {
    id: 'python',
    extensions: ['.py', '.pyi', '.pyw'],
    wasmModule: `${VSCODE}tree-sitter-python.wasm`,
    wrappers: ['decorated_definition'],
    signatureWrappers: [],
    leadingAttributes: [],
    bodyTypes: ['block'],
  },
  {
    id: 'javascript',
    extensions: ['.js', '.mjs', '.cjs', '.jsx'],
    wasmModule: `${VSCODE}tree-sitter-javascript.wasm`,
    wrappers: JS_WRAPPERS,
    signatureWrappers: JS_WRAPPERS,
    leadingAttributes: [],
    bodyTypes: JS_BODIES,
    signatureSkip: ['decorator'],
  },
  {
    id: 'typescript',
    extensions: ['.ts', '.mts', '.cts'],
    wasmModule: `${VSCODE}tree-sitter-typescript.wasm`,
    wrappers: TS_WRAPPERS,
    signatureWrappers: TS_WRAPPERS,
    leadingAttributes: [],
    bodyTypes: JS_BODIES,
    signatureSkip: ['decorator'],
  },
  {
    id: 'tsx',
    extensions: ['.tsx'],
    wasmModule: `${VSCODE}tree-sitter-tsx.wasm`,
    queryOf: 'typescript',
    wrappers: TS_WRAPPERS,
    signatureWrappers: TS_WRAPPERS,
    leadingAttributes: [],
    bodyTypes: JS_BODIES,
    signatureSkip: ['decorator'],
  },
  {
    id: 'java',
    extensions: ['.java'],
    wasmModule: `${VSCODE}tree-sitter-java.wasm`,
    wrappers: [],
    signatureWrappers: [],
    leadingAttributes: [],
    bodyTypes: ['class_body', 'interface_body', 'enum_body', 'constructor_body', 'block', 'annotation_type_body'],
    signatureSkip: ['marker_annotation', 'annotation'],
  },
  {
    id: 'go',
    extensions: ['.go'],
    wasmModule: `${VSCODE}tree-sitter-go.wasm`,
    wrappers: ['type_declaration'],
    signatureWrappers: ['type_declaration'],
    leadingAttributes: [],
    bodyTypes: ['block', 'field_declaration_list', 'method_spec_list'],
  },
  {
    id: 'rust',
    extensions: ['.rs'],
    wasmModule: `${VSCODE}tree-sitter-rust.wasm`,
    wrappers: [],
    signatureWrappers: [],
    leadingAttributes: ['attribute_item'],
    bodyTypes: ['block', 'field_declaration_list', 'enum_variant_list', 'declaration_list'],
  },
  {
    id: 'c',
    extensions: ['.c', '.h'],
    wasmModule: `${WASMS}tree-sitter-c.wasm`,
    wrappers: ['type_definition'],
    signatureWrappers: ['type_definition'],
    leadingAttributes: [],
    bodyTypes: ['compound_statement', 'field_declaration_list', 'enumerator_list'],
  },
  {
    id: 'cpp',
    extensions: ['.cpp', '.cc', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++', '.ipp', '.inl', '.tpp'],
    wasmModule: `${VSCODE}tree-sitter-cpp.wasm`,
    wrappers: ['template_declaration', 'type_definition'],
    signatureWrappers: ['template_declaration', 'type_definition'],
    leadingAttributes: [],
    bodyTypes: ['compound_statement', 'field_declaration_list', 'enumerator_list'],
  },
  {
    id: 'csharp',
    extensions: ['.cs'],
    wasmModule: `${VSCODE}tree-sitter-c-sharp.wasm`,
    wrappers: [],
    signatureWrappers: [],
    leadingAttributes: [],
    bodyTypes: ['declaration_list', 'block', 'enum_member_declaration_list', 'arrow_expression_clause'],
    signatureSkip: ['attribute_list'],
  },
  {
    id: 'ruby',
    extensions: ['.rb', '.rake', '.gemspec', '.ru'],
    fileNames: ['Rakefile', 'Gemfile', 'Guardfile', 'Vagrantfile'],
    wasmModule: `${VSCODE}tree-sitter-ruby.wasm`,
    wrappers: [],
    signatureWrappers: [],
    leadingAttributes: [],
    bodyTypes: ['body_statement'],
    moduleMembersAreMethods: true,
  },
  {
    id: 'php',
    extensions: ['.php', '.phtml', '.php8'],
    wasmModule: `${VSCODE}tree-sitter-php.wasm`,
    wrappers: [],
    signatureWrappers: [],
    leadingAttributes: [],
    bodyTypes: ['compound_statement', 'declaration_list', 'enum_declaration_list'],
    signatureSkip: ['attribute_list'],
  },
  {
    id: 'kotlin',
    extensions: ['.kt', '.kts'],
    wasmModule: `${WASMS}tree-sitter-kotlin.wasm`,
    wrappers: [],
    signatureWrappers: [],
    leadingAttributes: [],
    bodyTypes: ['class_body', 'function_body', 'enum_class_body'],
    signatureSkip: ['annotation'],
  },
  {
    id: 'swift',
    extensions: ['.swift'],
    wasmModule: `${WASMS}tree-sitter-swift.wasm`,
    wrappers: [],
    signatureWrappers: [],
    leadingAttributes: [],
    bodyTypes: ['class_body', 'function_body', 'protocol_body', 'enum_class_body'],
    signatureSkip: ['attribute'],
  },
  {
    id: 'scala',
    extensions: ['.scala', '.sc'],
    wasmModule: `${WASMS}tree-sitter-scala.wasm`,
    wrappers: [],
    signatureWrappers: [],
    leadingAttributes: [],
    bodyTypes: ['template_body', 'block'],
    signatureSkip: ['annotation'],
  },
  {
    id: 'bash',
    extensions: ['.sh', '.bash'],
    wasmModule: `${VSCODE}tree-sitter-bash.wasm`,
    wrappers: [],
    signatureWrappers: [],
    leadingAttributes: [],
    bodyTypes: ['compound_statement'],
  },
] as const satisfies readonly LanguageSpec[];

/** Compiles only while every language id has a registry entry. */
const everyLanguageHasASpec: Exclude<LanguageId, (typeof REGISTRY)[number]['id']> extends never ? true : never = true;
void everyLanguageHasASpec;

const SPECS: readonly LanguageSpec[] = REGISTRY;

const BY_ID = new Map<string, LanguageSpec>(SPECS.map((spec) => [spec.id, spec]));
const BY_EXTENSION = new Map<string, string>();
const BY_FILE_NAME = new Map<string, string>();
for (const spec of SPECS) {
  for (const ext of spec.extensions) BY_EXTENSION.set(ext, spec.id);
  for (const name of spec.fileNames ?? []) BY_FILE_NAME.set(name, spec.id);
}

/** Ids of every language the parser understands, in registry order. */
export const SUPPORTED_LANGUAGES: readonly LanguageId[] = SPECS.map((spec) => spec.id);

/** Whether a stored language id (a string from the index) is one the parser understands. */
export function isLanguageId(id: string): id is LanguageId {
  return BY_ID.has(id);
}

/**
 * The language id for a repository path (either separator), decided by exact base
 * name first and then by the lower-cased last extension; null when unsupported.
 */
export function languageForPath(path: string): string | null {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const byName = BY_FILE_NAME.get(base);
  if (byName) return byName;
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION.get(base.slice(dot).toLowerCase()) ?? null;
}

/** The registry entry for a language id; throws on an unknown id (a programming error). */
export function languageSpec(id: string): LanguageSpec {
  const spec = BY_ID.get(id);
  if (!spec) throw new Error(`unknown language id: ${id}`);
  return spec;
}

/**
 * Absolute path of the grammar wasm for a language id. The grammars taken from
 * tree-sitter-wasms (a development dependency) are shipped in `dist/grammars/`
 * by the build (scripts/copy-grammars.mjs); a checkout that has not been built
 * reads them from the package itself. Both `src/parse/` and `dist/*` sit two
 * levels below the package root.
 */
export function wasmPath(id: string): string {
  const module = languageSpec(id).wasmModule;
  if (module.startsWith(WASMS)) {
    const shipped = fileURLToPath(new URL(`../../dist/grammars/${module.slice(WASMS.length)}`, import.meta.url));
    if (existsSync(shipped)) return shipped;
  }
  return createRequire(import.meta.url).resolve(module);
}

/** The grammar files the build copies into `dist/grammars/` (those of tree-sitter-wasms). */
export function shippedGrammarFiles(): string[] {
  return SPECS.filter((spec) => spec.wasmModule.startsWith(WASMS)).map((spec) => spec.wasmModule.slice(WASMS.length));
}

/**
 * Absolute path of the language's query file (`queries/<id>.scm`, or the one it shares) at the package root. Both `src/parse/*.ts`
 * (vitest) and `dist/parse/*.js` (built) sit two levels below the root.
 */
export function queryPath(id: string): string {
  const file = languageSpec(id).queryOf ?? id;
  return fileURLToPath(new URL(`../../queries/${file}.scm`, import.meta.url));
}

/**
 * The grammar and query files of these language ids that are not on disk. A missing one
 * means the installation is incomplete (a copied `dist/` without `queries/`, a pruned
 * `node_modules`), not that a source file is bad: callers should stop rather than record
 * every file of the language as a failed parse.
 */
export function missingLanguageAssets(ids: Iterable<string>): string[] {
  const missing = new Set<string>();
  for (const id of ids) {
    let wasm: string | null = null;
    try {
      wasm = wasmPath(id);
    } catch {
      missing.add(languageSpec(id).wasmModule);
    }
    if (wasm !== null && !existsSync(wasm)) missing.add(wasm);
    const query = queryPath(id);
    if (!existsSync(query)) missing.add(query);
  }
  return [...missing];
}
