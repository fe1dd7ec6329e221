/**
 * The names every file defines, read in one query, for file-level documents
 * (a file described by its path and the names it defines; see
 * retrieve/file-documents.ts). One pass over the symbols table instead of one
 * lookup per file: a repository has thousands of files.
 */
import { derivedKey, fileRowLogBetween, indexConnection, snapshotOf, startFileRowLog, type IndexStore } from '../store/index.js';

/**
 * Simple names of the symbols each indexed file defines at most `maxDepth`
 * levels below its top level (0: top-level classes and functions only; 1:
 * also their members), in source order. Files defining nothing are absent.
 */
export function definedNamesByFile(store: IndexStore, maxDepth = 1): Map<string, string[]> {
  const rows = indexConnection(store)
    .prepare('SELECT f.path AS path, s.name AS name, s.qualified_name AS qualified FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.start_line, s.id')
    .all() as { path: string; name: string; qualified: string }[];
  return namesByPath(rows, maxDepth);
}

/**
 * {@link definedNamesByFile} for the given paths only (an update of file-level
 * documents after a few files changed reads just theirs).
 */
export function definedNamesOfFiles(store: IndexStore, paths: readonly string[], maxDepth = 1): Map<string, string[]> {
  const rows = indexConnection(store)
    .prepare(
      `SELECT f.path AS path, s.name AS name, s.qualified_name AS qualified FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE f.path IN (SELECT value FROM json_each(?)) ORDER BY f.path, s.start_line, s.id`,
    )
    .all(JSON.stringify(paths)) as { path: string; name: string; qualified: string }[];
  return namesByPath(rows, maxDepth);
}

/**
 * Every file in a parsed language (not `unknown`), by path, with a state
 * string that changes whenever anything derived from the file may change
 * (its blob, language, parse status or the time it was last written): what a
 * derived file-level index compares to tell changed files from unchanged ones.
 * The same object for every call within one index state (read once).
 */
export function parsedFileStates(store: IndexStore): { readonly paths: readonly string[]; readonly states: readonly string[] } {
  // One read per index state (both file-level document kinds compare against it after every edit), and after
  // this connection's own writes only their paths' rows are read again (file-row-changes.ts).
  const snapshot = snapshotOf(store);
  return snapshot.derive(FILE_STATES, (earlier) => {
    const db = indexConnection(store);
    const version = store.pathsVersion();
    const log = earlier && version !== null && version === earlier.pathsVersion ? fileRowLogBetween(db, 'parsed-file-states', earlier.generation, snapshot.generation) : null;
    const patched = log && patchedStates(store, earlier!, log.paths);
    startFileRowLog(db, 'parsed-file-states', snapshot.generation);
    const held = { generation: snapshot.generation, pathsVersion: version };
    return patched ? { ...patched, ...held, positions: earlier!.positions } : { ...readFileStates(store), ...held, positions: undefined };
  });
}

interface HeldStates {
  paths: readonly string[];
  states: readonly string[];
  generation: string;
  pathsVersion: string | null;
  /** Each path's position in `paths`, built on the first patch and kept while the paths are. */
  positions: Map<string, number> | undefined;
}

const FILE_STATES = derivedKey<HeldStates>('parsed file states', { carried: true });

/**
 * `earlier`'s states with the rows of `changed` (every path whose files row
 * this connection wrote or removed since) read again; null when one of them
 * joined or left the parsed files (then the whole list is read).
 */
function patchedStates(store: IndexStore, earlier: HeldStates, changed: ReadonlySet<string>): { paths: readonly string[]; states: readonly string[] } | null {
  if (changed.size === 0) return { paths: earlier.paths, states: earlier.states };
  const positions = (earlier.positions ??= new Map(earlier.paths.map((path, i) => [path, i])));
  const rows = indexConnection(store)
    .prepare(`SELECT path, language != 'unknown', ${STATE} FROM files WHERE path IN (SELECT value FROM json_each(?))`)
    .raw()
    .all(JSON.stringify([...changed])) as [string, number, string][];
  const states = [...earlier.states];
  const found = new Set<string>();
  for (const [path, parsed, state] of rows) {
    const at = positions.get(path);
    if (parsed !== 1) {
      if (at !== undefined) return null;
      continue;
    }
    if (at === undefined) return null;
    states[at] = state;
    found.add(path);
  }
  // A parsed file whose row is gone left the list.
  for (const path of changed) if (positions.has(path) && !found.has(path)) return null;
  return { paths: earlier.paths, states };
}

/** A file's state string (see parsedFileStates), as SQL over a files row. */
const STATE = `blob_id || ' ' || language || ' ' || status || ' ' || indexed_at`;

function readFileStates(store: IndexStore): { paths: string[]; states: string[] } {
  const rows = indexConnection(store)
    .prepare(`SELECT path, ${STATE} FROM files WHERE language != 'unknown' ORDER BY path`)
    .raw()
    .all() as [string, string][];
  const paths = new Array<string>(rows.length);
  const states = new Array<string>(rows.length);
  rows.forEach(([path, state], i) => {
    paths[i] = path;
    states[i] = state;
  });
  return { paths, states };
}

function namesByPath(rows: { path: string; name: string; qualified: string }[], maxDepth: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows) {
    let depth = 0;
    for (let i = row.qualified.indexOf('.'); i >= 0; i = row.qualified.indexOf('.', i + 1)) depth++;
    if (depth > maxDepth) continue;
    const names = out.get(row.path);
    if (names) names.push(row.name);
    else out.set(row.path, [row.name]);
  }
  return out;
}
