/**
 * What a repository-wide file graph is built from, read in two queries: the
 * resolved import edges, and each parsed file's defined and called names (the
 * `graph_facts` rows written with its symbols at index time, one per file).
 */
import { indexConnection, type IndexStore } from '../store/index.js';

/** Every file's definitions and calls, and every resolved import edge. */
export interface GraphInputs {
  /** Files in a parsed language, sorted by path. */
  paths: string[];
  /** Resolved imports as [from, to] indexes into `paths`. */
  imports: Array<[number, number]>;
  /** Per file (index into `paths`): the simple names it defines at depth 0 or 1 (top level, members). */
  defines: string[][];
  /** Per file: the distinct simple names its symbols call, sorted. */
  calls: string[][];
}

/** Reads the graph inputs of the whole index. */
export function graphInputs(store: IndexStore): GraphInputs {
  const db = indexConnection(store);
  const rows = db
    .prepare("SELECT f.path, g.defines, g.calls FROM files f LEFT JOIN graph_facts g ON g.file_id = f.id WHERE f.language != 'unknown' ORDER BY f.path")
    .raw()
    .all() as [string, string | null, string | null][];
  const paths = rows.map((r) => r[0]);
  const at = new Map(paths.map((p, i) => [p, i]));
  const imports: Array<[number, number]> = [];
  for (const [from, to] of db.prepare('SELECT from_path, to_path FROM import_edges ORDER BY from_path, to_path').raw().all() as [string, string][]) {
    const a = at.get(from);
    const b = at.get(to);
    if (a !== undefined && b !== undefined && a !== b) imports.push([a, b]);
  }
  const defines = rows.map((r) => (r[1] === null || r[1] === '[]' ? [] : (JSON.parse(r[1]) as string[])));
  const calls = rows.map((r) => (r[2] === null || r[2] === '[]' ? [] : (JSON.parse(r[2]) as string[])));
  return { paths, imports, defines, calls };
}

/** A symbol as the repository map shows it (no body facts: callees and bases are not read). */
export interface MapSymbolRow {
  name: string;
  qualifiedName: string;
  kind: string;
  parent: string | null;
  startLine: number;
  endLine: number;
  signature: string;
}

const mapStatements = new WeakMap<object, import('better-sqlite3').Statement>();

/** The symbols of `path` in source order, with only what a map line needs (cheaper than symbolsOf on files with thousands). */
export function mapSymbolsOf(store: IndexStore, path: string): MapSymbolRow[] {
  const db = indexConnection(store);
  let statement = mapStatements.get(db);
  if (!statement) {
    statement = db.prepare(
      `SELECT s.name AS name, s.qualified_name AS qualifiedName, s.kind AS kind, s.parent AS parent, s.start_line AS startLine,
              s.end_line AS endLine, s.signature AS signature
       FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? ORDER BY s.start_line, s.end_line DESC, s.id`,
    );
    mapStatements.set(db, statement);
  }
  return statement.all(path) as MapSymbolRow[];
}
