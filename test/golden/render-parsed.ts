/**
 * Readable, diff-friendly text rendering of a parsed file for golden snapshots:
 * a header line, one line per import, one line per symbol.
 */
import type { ImportRecord, ParsedFile } from '../../src/parse/symbol-model.js';

function list(values: readonly string[]): string {
  return values.length === 0 ? '-' : values.join(',');
}

/**
 * Renders `parsed` as `== path (language) status=… errors=… lines=…`, then
 * `import source names=… @line [-> resolved files]`, then
 * `kind qualifiedName [start-end] parent=… sig=… doc=… calls=… bases=…`.
 */
export function renderParsed(parsed: ParsedFile, resolve?: (imp: ImportRecord) => string[]): string {
  const lines = [
    `== ${parsed.path} (${parsed.language}) status=${parsed.status} errors=${parsed.errorCount} lines=${parsed.lineCount}` +
      (parsed.decodedWithReplacement ? ' replaced-utf8' : ''),
  ];
  for (const imp of parsed.imports) {
    const resolved = resolve ? resolve(imp) : [];
    lines.push(`import ${imp.source} names=${list(imp.names)} @${imp.line}${resolved.length > 0 ? ` -> ${resolved.join(',')}` : ''}`);
  }
  for (const s of parsed.symbols) {
    lines.push(
      `${s.kind} ${s.qualifiedName} [${s.startLine}-${s.endLine}] parent=${s.parent ?? '-'}` +
        ` sig=${JSON.stringify(s.signature)} doc=${s.doc === null ? '-' : JSON.stringify(s.doc)}` +
        ` calls=${list(s.callees)} bases=${list(s.bases)}`,
    );
  }
  return lines.join('\n');
}
