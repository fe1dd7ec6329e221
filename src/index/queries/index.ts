/**
 * Reads of a built index other than lexical scoring: symbols by name,
 * references, text search, folder listings, graph inputs, the definitions of
 * files, the symbols of a file at a revision, and an index read as a source.
 */
export { definedNamesByFile, definedNamesOfFiles, parsedFileStates } from './file-definitions.js';
export { type FolderChild, folderChildren, notIndexedReason, resolveListingPath, symbolCounts } from './folder-listing.js';
export { graphInputs, type GraphInputs, type MapSymbolRow, mapSymbolsOf } from './graph-inputs.js';
export { symbolsCalling } from './reference-queries.js';
export { StoredSource } from './stored-source.js';
export { symbolsNamed, symbolsWithNameContaining } from './symbol-queries.js';
export { type FileSide, symbolsOfBytes } from './symbols-of-bytes.js';
export { importTargets } from './import-targets.js';
export { filesContainingText, type IndexedText } from './text-queries.js';
