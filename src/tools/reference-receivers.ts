/**
 * Whether a call (`name(…)`, `x.name(…)`, `X::name()`) can reach one of a
 * name's definitions, without type-checking. Inside the definition's own file
 * the answer is the parse layer's same-file resolution (call-resolution.ts),
 * the very rule behind the scaffold's invokes / invoked-by and the web view's
 * call edges, so the three agree on every edge. Across files the same rule
 * applies to what the caller's file shows (its own object, the class name, a
 * variable declared with the class), plus the links only an index knows: a
 * module the caller's file imports that resolves to the definition's file (or
 * re-exports the name from it), or a module path naming that file
 * (`crate::meter::helper`). Anything else is "same name, other receiver":
 * `current_app.url_for(…)` is not the module function `url_for`.
 */
import type { IndexStore, SymbolRow } from '../index/index.js';
import { reachesFromFile, receiverSegments, resolveImport, sameFileTargets, simpleOf, type CallScope } from '../parse/index.js';

/** A definition a reference may reach. */
export interface ReferenceTarget {
  path: string;
  qualifiedName: string;
}

/** How a call reaches a definition: in the definition's own file, or from another file. */
export type Reach = 'same file' | 'other file';

/** What a receiver check needs about the repository; one per find_references call (it caches). */
export class ReceiverResolver {
  private files: Set<string> | null = null;
  private readonly scopes = new Map<string, CallScope>();

  constructor(
    private readonly store: IndexStore,
    private readonly targets: readonly ReferenceTarget[],
    /** The simple name the calls are made by. */
    private readonly simple: string,
  ) {}

  /** Whether a call through `receiver` (null: a plain call) inside `caller` reaches one of the targets, and how; null when none. */
  reaches(receiver: string | null, caller: SymbolRow): Reach | null {
    const scope = this.scopeOf(caller.path);
    const local = this.targets.filter((t) => t.path === caller.path);
    if (local.length > 0) {
      const candidates = scope.symbols.filter((s) => s.name === this.simple);
      const reached = sameFileTargets([this.simple, receiver], caller, candidates, scope);
      if (local.some((t) => reached.includes(t.qualifiedName))) return 'same file';
    }
    for (const target of this.targets) {
      if (target.path === caller.path) continue;
      if (reachesFromFile(receiver, caller, target, scope)) return 'other file';
      // A plain call of a member the caller's file imports by name (`import refs.Util.helper`, `import static`).
      if (receiver === null && this.importsName(caller.path)) return 'other file';
      if (receiver === null) continue;
      const segments = receiverSegments(receiver);
      if (segments.length === 0) continue;
      if (segments[segments.length - 1] === fileStem(target.path)) return 'other file'; // crate::meter::helper, lib.helper
      if (this.importedModuleReaches(segments[0], caller.path, target)) return 'other file';
    }
    return null;
  }

  private importsName(path: string): boolean {
    return this.store.importsOfFile(path).some((record) => boundNames(record).includes(this.simple));
  }

  private scopeOf(path: string): CallScope {
    let scope = this.scopes.get(path);
    if (!scope) {
      const text = this.store.fileText(path);
      scope = { language: this.store.file(path)?.language ?? '', symbols: this.store.symbolsOf(path), lines: text === null ? null : text.split('\n') };
      this.scopes.set(path, scope);
    }
    return scope;
  }

  /** `root` is a name an import in `path` binds, and that import leads to the target's file (directly or by re-export). */
  private importedModuleReaches(root: string, path: string, target: ReferenceTarget): boolean {
    const language = this.store.file(path)?.language;
    if (!language) return false;
    const simple = simpleOf(target.qualifiedName);
    const stem = fileStem(target.path);
    for (const record of this.store.importsOfFile(path)) {
      if (!boundNames(record).includes(root)) continue;
      const leads = resolveImport(path, language, record, this.allFiles());
      if (leads.includes(target.path)) return true;
      // `from pkg import helpers` binds the module helpers.py itself when the import resolves to its package.
      if (root === stem && this.store.importsOf(path).includes(target.path)) return true;
      for (const via of leads) {
        if (this.store.importsOf(via).includes(target.path) && this.store.importsOfFile(via).some((r) => boundNames(r).includes(simple))) return true;
      }
    }
    return false;
  }

  private allFiles(): Set<string> {
    return (this.files ??= new Set(this.store.files().map((f) => f.path)));
  }
}

/** `meter` for `src/meter.rs`; the folder's name for a folder's own file (`mod.rs`, `__init__.py`, `index.ts`). */
function fileStem(path: string): string {
  const parts = path.split('/');
  const stem = parts[parts.length - 1].replace(/\.[^.]+$/, '');
  return ['mod', '__init__', 'index'].includes(stem) && parts.length > 1 ? parts[parts.length - 2] : stem;
}

/** The names an import binds in its file: `y` for `x as y`, the last part of each name, or of the source when it names none. */
function boundNames(record: { source: string; names: string[] }): string[] {
  if (record.names.length === 0) {
    const parts = record.source.split(/[/.:\\]+/).filter(Boolean);
    return parts.length > 0 ? [parts[0], parts[parts.length - 1]] : [];
  }
  return record.names.map((n) => {
    const alias = /\s+as\s+(\S+)\s*$/.exec(n);
    return alias ? alias[1] : simpleOf(n.trim());
  });
}
