/**
 * The index's reference queries: which symbols call a name. Callees are stored
 * per symbol as a JSON list of the simple names called in its body (what the
 * parser sees: `self.total()` and `total()` both store `total`), so a caller is
 * found by name, not by resolved target; resolution is the caller's business
 * (see tools/find-references-tool.ts).
 */
import { indexConnection, type IndexStore, type SymbolRow } from '../store/index.js';
import { toSymbolRow, type RawSymbol } from '../store/index.js';

/** Escapes LIKE wildcards (`_` is common in names) for `ESCAPE '\'`. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Symbols whose body calls `simpleName` (exact, case-sensitive), by path then
 * line, at most `limit` rows. The LIKE narrows; the JSON check makes it exact.
 */
export function symbolsCalling(store: IndexStore, simpleName: string, limit: number): SymbolRow[] {
  const rows = indexConnection(store)
    .prepare(
      `SELECT s.*, f.path AS path FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.callees LIKE ? ESCAPE '\\' ORDER BY f.path, s.start_line, s.id LIMIT ?`,
    )
    .all(`%${likeLiteral(JSON.stringify(simpleName))}%`, Math.max(1, Math.floor(limit))) as RawSymbol[];
  return rows.map(toSymbolRow).filter((s) => s.callees.includes(simpleName));
}
