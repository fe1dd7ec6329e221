/**
 * Maps an import record to the indexed files it refers to, per language convention.
 * Best effort and deliberately conservative: external packages resolve to nothing.
 */
import { posix } from 'node:path';
import type { ImportRecord } from './symbol-model.js';
import { isLanguageId } from './languages.js';

/** Derived lookups over one file set, cached per set so resolution is not O(files) per import. */
interface FileIndex {
  size: number;
  byBaseName: Map<string, string[]>;
  byDir: Map<string, string[]>;
}

const indexCache = new WeakMap<ReadonlySet<string>, FileIndex>();

function fileIndex(files: ReadonlySet<string>): FileIndex {
  const cached = indexCache.get(files);
  // A size change means the caller mutated the set: rebuild rather than go stale.
  if (cached && cached.size === files.size) return cached;
  const byBaseName = new Map<string, string[]>();
  const byDir = new Map<string, string[]>();
  for (const file of [...files].sort()) {
    const slash = file.lastIndexOf('/');
    const base = file.slice(slash + 1);
    const dir = slash === -1 ? '' : file.slice(0, slash);
    let named = byBaseName.get(base);
    if (!named) byBaseName.set(base, (named = []));
    named.push(file);
    let inDir = byDir.get(dir);
    if (!inDir) byDir.set(dir, (inDir = []));
    inDir.push(file);
  }
  const index = { size: files.size, byBaseName, byDir };
  indexCache.set(files, index);
  return index;
}

function dirOf(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}

/** A part that needs normalizing: absolute, a trailing or doubled slash, or a `.` or `..` segment. */
const UNCLEAN_PART = /^\/|\/$|\/\/|(?:^|\/)\.\.?(?:\/|$)/;

/** Joins and normalizes; null when the result escapes the repository root. */
function join(...parts: string[]): string | null {
  const present = parts.filter((p) => p !== '');
  // Most candidates join clean parts (an indexed file's folder, a dotted module name): the
  // plain concatenation is already normal. posix.join + normalize on every candidate was
  // most of the import-edge rebuild (~2 s of an 11k-file tree's cold index).
  if (!present.some((p) => UNCLEAN_PART.test(p))) return present.join('/');
  const joined = posix.normalize(posix.join(...present));
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/')) return null;
  return joined === '.' ? '' : joined;
}

/** Files whose path ends with `/suffix` or equals it, sorted. */
function bySuffix(suffix: string, index: FileIndex): string[] {
  const base = suffix.slice(suffix.lastIndexOf('/') + 1);
  return (index.byBaseName.get(base) ?? []).filter((f) => f === suffix || f.endsWith(`/${suffix}`));
}

function firstExisting(candidates: readonly (string | null)[], files: ReadonlySet<string>): string[] {
  for (const candidate of candidates) if (candidate !== null && files.has(candidate)) return [candidate];
  return [];
}

// ---- Python

const PYTHON_ROOTS = ['', 'src', 'lib'];

function pythonModule(base: string, dotted: string, files: ReadonlySet<string>): string | null {
  const rel = dotted.split('.').filter(Boolean).join('/');
  for (const ext of ['.py', '.pyi']) {
    const asFile = rel ? join(base, `${rel}${ext}`) : null;
    if (asFile !== null && files.has(asFile)) return asFile;
    const asPackage = join(base, rel, `__init__${ext}`);
    if (asPackage !== null && files.has(asPackage)) return asPackage;
  }
  return null;
}

function resolvePython(fromPath: string, imp: ImportRecord, files: ReadonlySet<string>): string[] {
  const { source } = imp;
  let bases: string[];
  let dotted: string;
  if (source.startsWith('.')) {
    const dots = /^\.+/.exec(source)![0].length;
    let base: string | null = dirOf(fromPath);
    for (let i = 1; i < dots && base !== null; i++) base = base === '' ? null : dirOf(base);
    if (base === null) return [];
    bases = [base];
    dotted = source.slice(dots);
  } else {
    bases = PYTHON_ROOTS;
    dotted = source;
  }
  for (const base of bases) {
    const found: string[] = [];
    let needsModule = imp.names.length === 0;
    // `from pkg import name` names a submodule when pkg/name.py exists, else an attribute of pkg.
    for (const name of imp.names) {
      const sub = name === '*' ? null : pythonModule(base, dotted ? `${dotted}.${name}` : name, files);
      if (sub) found.push(sub);
      else needsModule = true;
    }
    if (needsModule) {
      const module = pythonModule(base, dotted, files);
      if (module) found.unshift(module);
    }
    if (found.length > 0) return [...new Set(found)];
  }
  return [];
}

// ---- JavaScript / TypeScript

const JS_EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.d.ts'];

function resolveScript(fromPath: string, imp: ImportRecord, files: ReadonlySet<string>): string[] {
  const { source } = imp;
  if (!source.startsWith('./') && !source.startsWith('../') && source !== '.' && source !== '..') return [];
  const target = join(dirOf(fromPath), source);
  if (target === null) return [];
  const candidates: string[] = [target];
  // ESM TypeScript writes `./x.js` for the file `x.ts`.
  const written = /\.(?:m|c)?jsx?$/.exec(target);
  const stem = written ? target.slice(0, -written[0].length) : target;
  for (const ext of JS_EXTENSIONS) candidates.push(`${stem}${ext}`);
  if (stem !== target) for (const ext of JS_EXTENSIONS) candidates.push(`${target}${ext}`);
  for (const ext of JS_EXTENSIONS) candidates.push(`${target}/index${ext}`);
  return firstExisting(candidates, files);
}

// ---- JVM languages: package path = directory path

function resolveJvm(imp: ImportRecord, extensions: readonly string[], index: FileIndex): string[] {
  const segments = imp.source.split('.').filter(Boolean);
  if (segments.length === 0) return [];
  if (imp.names.includes('*')) {
    const dirSuffix = segments.join('/');
    const found: string[] = [];
    for (const [dir, inDir] of index.byDir) {
      if (dir !== dirSuffix && !dir.endsWith(`/${dirSuffix}`)) continue;
      found.push(...inDir.filter((f) => extensions.some((ext) => f.endsWith(ext))));
    }
    if (found.length > 0) return found.sort();
    // `import pkg.Outer.*` imports nested members of the class file Outer.
  }
  // `a.b.C` is a file; `a.b.C.member` (static import, nested class) lives in a.b.C.
  for (let end = segments.length; end >= Math.min(2, segments.length); end--) {
    const rel = segments.slice(0, end).join('/');
    for (const ext of extensions) {
      const found = bySuffix(`${rel}${ext}`, index);
      if (found.length > 0) return found;
    }
  }
  return [];
}

// ---- Go: the import path ends with a directory of the repository

function resolveGo(imp: ImportRecord, index: FileIndex): string[] {
  const path = imp.source.replace(/\/+$/, '');
  let best: string | null = null;
  for (const dir of index.byDir.keys()) {
    if (dir === '' || (path !== dir && !path.endsWith(`/${dir}`))) continue;
    if (best === null || dir.length > best.length) best = dir;
  }
  if (best === null) return [];
  return index.byDir.get(best)!.filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
}

// ---- C / C++: relative to the including file, then anywhere by suffix

function resolveInclude(fromPath: string, imp: ImportRecord, files: ReadonlySet<string>, index: FileIndex): string[] {
  const local = join(dirOf(fromPath), imp.source);
  if (local !== null && files.has(local)) return [local];
  const normalized = join(imp.source);
  return normalized === null ? [] : bySuffix(normalized, index);
}

// ---- Rust: `mod x;` and `use crate|self|super::...`

function crateRoot(fromPath: string, files: ReadonlySet<string>): string {
  for (let dir = dirOf(fromPath); ; dir = dirOf(dir)) {
    if (files.has(join(dir, 'lib.rs') ?? '') || files.has(join(dir, 'main.rs') ?? '')) return dir;
    if (dir === '') return dirOf(fromPath);
  }
}

/** Directory holding the submodules of the module defined by `path`. */
function rustModuleDir(path: string): string {
  const base = posix.basename(path);
  if (base === 'lib.rs' || base === 'main.rs' || base === 'mod.rs') return dirOf(path);
  return path.slice(0, -'.rs'.length);
}

function rustProbe(dir: string, segments: readonly string[], files: ReadonlySet<string>): string[] {
  // The longest prefix that is a module file wins: `a::b::Item` lives in a/b.rs.
  for (let end = segments.length; end >= 1; end--) {
    const rel = segments.slice(0, end).join('/');
    const found = firstExisting([join(dir, `${rel}.rs`), join(dir, rel, 'mod.rs')], files);
    if (found.length > 0) return found;
  }
  // Otherwise the item is defined in the module that owns `dir` (`super::Item`).
  const parent = dirOf(dir);
  const name = posix.basename(dir);
  return firstExisting(
    [join(dir, 'mod.rs'), join(dir, 'lib.rs'), join(dir, 'main.rs'), dir === '' ? null : join(parent, `${name}.rs`)],
    files,
  );
}

function resolveRust(fromPath: string, imp: ImportRecord, files: ReadonlySet<string>): string[] {
  const segments = imp.source.split('::').filter(Boolean);
  if (segments.length === 0) return [];
  const [head, ...rest] = segments;
  if (head === 'crate') return rustProbe(crateRoot(fromPath, files), rest, files);
  if (head === 'self') return rustProbe(rustModuleDir(fromPath), rest, files);
  if (head === 'super') {
    let dir = dirOf(rustModuleDir(fromPath));
    let tail = rest;
    while (tail[0] === 'super') {
      dir = dirOf(dir);
      tail = tail.slice(1);
    }
    return rustProbe(dir, tail, files);
  }
  // `mod x;` (a single segment) declares a child module of this file; no fallback to
  // the file itself, which would be a self-edge.
  if (segments.length === 1) {
    const dir = rustModuleDir(fromPath);
    return firstExisting([join(dir, `${head}.rs`), join(dir, head!, 'mod.rs')], files);
  }
  return [];
}

// ---- Ruby and shell: paths relative to the file (Ruby `require` also from lib/)

function resolveRuby(fromPath: string, imp: ImportRecord, files: ReadonlySet<string>, index: FileIndex): string[] {
  const withExt = imp.source.endsWith('.rb') ? imp.source : `${imp.source}.rb`;
  const relative = firstExisting([join(dirOf(fromPath), withExt)], files);
  if (relative.length > 0 || imp.source.startsWith('.')) return relative;
  const fromLib = firstExisting([join('lib', withExt), join(withExt)], files);
  return fromLib.length > 0 ? fromLib : bySuffix(withExt, index).filter((f) => f.includes('/lib/'));
}

function resolveRelativeFile(fromPath: string, imp: ImportRecord, files: ReadonlySet<string>): string[] {
  if (imp.source.includes('$')) return [];
  return firstExisting([join(dirOf(fromPath), imp.source), join(imp.source.replace(/^\/+/, ''))], files);
}

/**
 * Repository-relative paths of the indexed `files` that the import `imp`, written in
 * `fromPath` (a `language` file), refers to; sorted or in probe order, de-duplicated,
 * empty when it names something outside the repository or the language has no rule.
 *
 * Rules: Python absolute modules (also under `src/`, `lib/`), `from pkg import mod`
 * submodules and relative `.x` / `..x`; JS/TS relative specifiers with extension and
 * `index.*` probing; Java/Kotlin/Scala package paths (wildcards → the package's files);
 * Go import-path suffix → the matching directory's non-test files; C/C++ includes
 * relative to the file, then by path suffix; Rust `mod x;` and `crate::`/`self::`/
 * `super::` paths; Ruby `require`/`require_relative`; shell `source`; PHP includes.
 * C# and Swift have no rule, on purpose: a C# `using` names a namespace and a Swift
 * `import` a module, neither a file (a namespace spans files, and the files of one
 * Swift module see each other without any import), so their files have no import
 * edges. Every language id has its case: a new language fails to compile here
 * until it states its rule.
 */
export function resolveImport(
  fromPath: string,
  language: string,
  imp: ImportRecord,
  files: ReadonlySet<string>,
): string[] {
  if (imp.source === '' || !isLanguageId(language)) return [];
  switch (language) {
    case 'python':
      return resolvePython(fromPath, imp, files);
    case 'javascript':
    case 'typescript':
    case 'tsx':
      return resolveScript(fromPath, imp, files);
    case 'java':
      return resolveJvm(imp, ['.java'], fileIndex(files));
    case 'kotlin':
      return resolveJvm(imp, ['.kt', '.kts', '.java'], fileIndex(files));
    case 'scala':
      return resolveJvm(imp, ['.scala', '.java'], fileIndex(files));
    case 'go':
      return resolveGo(imp, fileIndex(files));
    case 'c':
    case 'cpp':
      return resolveInclude(fromPath, imp, files, fileIndex(files));
    case 'rust':
      return resolveRust(fromPath, imp, files);
    case 'ruby':
      return resolveRuby(fromPath, imp, files, fileIndex(files));
    case 'bash':
    case 'php':
      return resolveRelativeFile(fromPath, imp, files);
    case 'csharp':
    case 'swift':
      return [];
    default:
      return unhandledLanguage(language);
  }
}

/** The `default` of a switch over {@link LanguageId}: compiles only while every language has its case. */
function unhandledLanguage(language: never): never {
  throw new Error(`no import rule for language ${String(language)}`);
}
