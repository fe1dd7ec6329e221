/**
 * What a repository ships, read from the repository itself: the library
 * packages its packaging metadata declares (so examples, benchmarks, docs
 * code, release scripts and CI helpers can be told from library code), and
 * how common each file name is (so a query word that names exactly one file
 * can point at it). Nothing here knows any particular repository: a prior
 * computed this way carries to a repository nobody tuned on.
 *
 * Library roots, Python: top-level packages (a folder with `__init__.py` at
 * the root or under `src/`) that the metadata names — the distribution name
 * of `pyproject.toml` (`[project]`/`[tool.poetry]` name), `setup.cfg` or
 * `setup.py` (`-`/`.` read as `_`), hatch's `packages = [...]`, and
 * setuptools' `packages.find` `include` globs. JavaScript/TypeScript: the
 * folders of package.json's `main`/`module`/`exports` targets and `files`.
 * When nothing matches, the layout says "unknown" and no prior applies.
 */
import { derivedKey, snapshotOf, type IndexStore } from '../index/index.js';
import { indexedPaths } from './indexed-paths.js';

/** The repository's shipped code and file-name statistics. */
export interface RepositoryLayout {
  /** Path prefixes (`yt_dlp/`, `src/diffusers/`) of the shipped library; empty when unknown. */
  libraryRoots: string[];
  /** Indexed files per lower-cased file stem (`cookies.py` and `cookies.ts` count under `cookies`). */
  stemCounts: Map<string, number>;
  /** Indexed paths per lower-cased file stem. */
  pathsByStem: Map<string, string[]>;
}

/** A layout with what it was computed from: the paths version and the blob of each packaging file it read (null: absent). */
interface HeldLayout {
  version: string | null;
  packaging: Map<string, string | null>;
  layout: RepositoryLayout;
}

const LAYOUT = derivedKey<HeldLayout>('repository layout', { carried: true });

/**
 * The layout of the indexed repository, computed once per index state and
 * carried over a write that changed neither the path set (same paths
 * version) nor any packaging file the layout read (same blob).
 */
export function repositoryLayout(store: IndexStore): RepositoryLayout {
  return snapshotOf(store).derive(LAYOUT, (earlier) => {
    const version = store.pathsVersion();
    const holds = earlier && version !== null && earlier.version === version && [...earlier.packaging].every(([name, blob]) => (store.file(name)?.blobId ?? null) === blob);
    return holds ? earlier : computeLayout(store, version);
  }).layout;
}

/** True when the layout knows the library and `path` is outside it; false when inside or unknown. */
export function isOutsideLibrary(layout: { libraryRoots: readonly string[] }, path: string): boolean {
  return layout.libraryRoots.length > 0 && !layout.libraryRoots.some((root) => path.startsWith(root));
}

/** The lower-cased stem of a path's file name (`a/b/Cookies.py` → `cookies`). */
export function fileStem(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.indexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).toLowerCase();
}

/**
 * What library detection reads of a repository: its packaging files and which
 * paths exist. The index answers from its files; a scan of a tree not indexed
 * yet (provisional-search.ts) from the disk and the files it matched.
 */
export interface PackagingView {
  /** The text of a file at the repository root (`pyproject.toml`), or null. */
  text(name: string): string | null;
  /** Paths that may be `name/__init__.py` or `src/name/__init__.py` (others are ignored). */
  packageInits(): Iterable<string>;
  /** True when a file search covers lies under `folder` (`src/`). */
  holdsFiles(folder: string): boolean;
}

/** The path prefixes of the library the packaging metadata declares (sorted; empty when unknown). */
export function libraryRoots(view: PackagingView): string[] {
  return [...pythonRoots(view), ...javascriptRoots(view)].sort();
}

function computeLayout(store: IndexStore, version: string | null): HeldLayout {
  // Read after the version (derive above): a path list newer than its version only ever fails the next comparison.
  const paths = indexedPaths(store);
  const stemCounts = new Map<string, number>();
  const pathsByStem = new Map<string, string[]>();
  for (const path of paths) {
    const stem = fileStem(path);
    stemCounts.set(stem, (stemCounts.get(stem) ?? 0) + 1);
    const list = pathsByStem.get(stem);
    if (list) list.push(path);
    else pathsByStem.set(stem, [path]);
  }
  const packaging = new Map<string, string | null>();
  const view: PackagingView = {
    text: (name) => {
      packaging.set(name, store.file(name)?.blobId ?? null);
      return store.fileText(name);
    },
    packageInits: () => paths,
    holdsFiles: (folder) => paths.some((p) => p.startsWith(folder)),
  };
  return { version, packaging, layout: { libraryRoots: libraryRoots(view), stemCounts, pathsByStem } };
}

function pythonRoots(view: PackagingView): string[] {
  // Candidate top-level packages: `name/__init__.py` or `src/name/__init__.py`.
  const candidates = new Map<string, string>();
  for (const path of view.packageInits()) {
    const match = /^(?:(src)\/)?([A-Za-z_][\w]*)\/__init__\.py$/.exec(path);
    if (match) candidates.set(match[2]!, match[1] ? `src/${match[2]}/` : `${match[2]}/`);
  }
  if (candidates.size === 0) return [];
  const names = new Set<string>();
  const globs: RegExp[] = [];
  const pyproject = view.text('pyproject.toml') ?? '';
  const projectName = /^\[(?:project|tool\.poetry)\][^[]*?^name\s*=\s*["']([^"']+)["']/ms.exec(pyproject)?.[1];
  if (projectName) names.add(normalize(projectName));
  const cfgName = /^\[metadata\][^[]*?^name\s*=\s*([^\s#]+)/ms.exec(view.text('setup.cfg') ?? '')?.[1];
  if (cfgName) names.add(normalize(cfgName));
  const setupName = /\bname\s*=\s*["']([A-Za-z0-9_.-]+)["']/.exec(view.text('setup.py') ?? '')?.[1];
  if (setupName) names.add(normalize(setupName));
  for (const list of pyproject.matchAll(/^\s*packages\s*=\s*\[([^\]]*)\]/gm)) {
    for (const entry of list[1]!.matchAll(/["']([^"']+)["']/g)) names.add(normalize(entry[1]!.split('/').pop()!));
  }
  for (const list of pyproject.matchAll(/^\s*include\s*=\s*\[([^\]]*)\]/gm)) {
    for (const entry of list[1]!.matchAll(/["']([A-Za-z_][\w.*]*)["']/g)) {
      const top = entry[1]!.split('.')[0]!;
      if (top.includes('*')) globs.push(new RegExp(`^${top.replace(/\*/g, '[\\w]*')}$`));
      else names.add(top);
    }
  }
  const roots: string[] = [];
  for (const [name, root] of candidates) if (names.has(name.toLowerCase()) || globs.some((g) => g.test(name))) roots.push(root);
  return roots;
}

function javascriptRoots(view: PackagingView): string[] {
  const text = view.text('package.json');
  if (!text) return [];
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [];
  }
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(manifest.main);
  collect(manifest.module);
  collect(manifest.exports);
  collect(manifest.files);
  const roots = new Set<string>();
  for (const target of targets) {
    const clean = target.replace(/^\.\//, '').replace(/\*.*$/, '');
    const folder = clean.includes('/') ? clean.slice(0, clean.indexOf('/') + 1) : '';
    // Built output (dist/, lib/) is rarely indexed source; only folders that hold indexed files count.
    if (folder && view.holdsFiles(folder)) roots.add(folder);
  }
  return [...roots];
}

function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/[-.]/g, '_');
}
