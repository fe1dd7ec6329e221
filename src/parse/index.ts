/**
 * Public surface of the parse layer: the languages and the one symbol model,
 * import resolution and the same-file call graph. The parser itself
 * (parse-source.ts, grammar-loader.ts) is a second entry, imported directly
 * and only where files are parsed, so that a process that parses nothing
 * never loads tree-sitter.
 */
export { sameFileCallGraph, type CallEdges, type CallGraphFile } from './call-graph.js';
export {
  callsOf,
  containerOf,
  OWN_OBJECT,
  reachesFromFile,
  RECEIVER_SEPARATOR,
  receiverSegments,
  sameFileTargets,
  simpleOf,
  type CallScope,
  type CallSymbol,
} from './call-resolution.js';
export { isLanguageId, LANGUAGE_IDS, languageForPath, missingLanguageAssets, SUPPORTED_LANGUAGES, type LanguageId } from './languages.js';
export { decodeSource } from './decode-source.js';
export { lineStartsOf } from './line-starts.js';
export { proseFormatOf, proseOutline, type ProseFormat } from './prose-outline.js';
export { resolveImport } from './resolve-imports.js';
export { prepareWasmTiering, TIER_UP_FROM_FILES, type WasmTiering } from './wasm-tiering.js';
export { TYPE_KINDS, type CallRef, type CodeSymbol, type ImportRecord, type ParsedFile, type ParseStatus, type SymbolKind } from './symbol-model.js';
