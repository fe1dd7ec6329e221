/**
 * Whether a call through a receiver (`x.name(…)`, `X::name()`) can reach one
 * of a name's definitions, without type-checking: the receiver must be the
 * caller's own object (`self`, `this`, … when the definition is a method of
 * the caller's class or of a base it names), the definition's class itself
 * (`Order.total()`), a module the caller's file imports that resolves to the
 * definition's file (or re-exports the name from it), or a variable the
 * caller's file declares or assigns with the definition's class
 * (`calc: PriceCalculator`, `self.calc = PriceCalculator()`,
 * `PriceCalculator calc`, `calc *PriceCalculator`). Anything else is "same
 * name, other receiver": `current_app.url_for(…)` is not the module function
 * `url_for`.
 */
import type { IndexStore, SymbolRow } from '../index/index.js';
import { resolveImport, TYPE_KINDS } from '../parse/index.js';

/** A definition a reference may reach. */
export interface ReferenceTarget {
  path: string;
  qualifiedName: string;
}

/** Receivers that mean "this object" (or its class / parent) across the indexed languages. */
const OWN_OBJECT = new Set(['self', 'this', 'cls', 'Self', 'static', 'super', 'parent', 'base', '$this', '@']);

const SEGMENT_SPLIT = /\?\.|&\.|\.|->|::|\\/;

/** What a receiver check needs about the repository; one per find_references call (it caches). */
export class ReceiverResolver {
  private files: Set<string> | null = null;
  private readonly lines = new Map<string, string[]>();

  constructor(
    private readonly store: IndexStore,
    private readonly targets: readonly ReferenceTarget[],
  ) {}

  /** True when a call of the name through `receiver`, inside `caller`, can reach one of the targets. */
  resolves(receiver: string, caller: SymbolRow): boolean {
    const cleaned = receiver.replace(/\(\s*\)$/, '').trim();
    const segments = cleaned.split(SEGMENT_SPLIT).map((s) => s.trim()).filter(Boolean);
    if (segments.length === 0) return false;
    const root = segments[0];
    const last = segments[segments.length - 1];
    for (const target of this.targets) {
      const container = containerOf(target.qualifiedName);
      if (segments.length === 1 && OWN_OBJECT.has(root)) {
        if (container !== null && this.ownClassReaches(caller, container)) return true;
        continue;
      }
      if (container !== null && simpleOf(container) === last) return true;
      if (last === fileStem(target.path)) return true; // a module path naming the definition's file: crate::meter::helper, lib.helper
      if (this.importedModuleReaches(root, caller.path, target)) return true;
      if (container !== null && this.declaredAs(variableOf(segments), simpleOf(container), this.scopeOf(segments, caller))) return true;
    }
    return false;
  }

  /** The caller sits in `container` (or a class whose bases name it). */
  private ownClassReaches(caller: SymbolRow, container: string): boolean {
    if (caller.qualifiedName.startsWith(`${container}.`)) return true;
    const wanted = simpleOf(container);
    return this.store
      .symbolsOf(caller.path)
      .some((s) => caller.qualifiedName.startsWith(`${s.qualifiedName}.`) && s.bases.some((b) => simpleOf(b.replace(/[<([].*$/, '')) === wanted));
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

  /**
   * Where a receiver variable is declared: the caller's own span (parameters and
   * locals) for `calc`, the enclosing class's span for `self.calc` / `this.calc`.
   */
  private scopeOf(segments: readonly string[], caller: SymbolRow): string {
    const lines = this.linesOf(caller.path);
    const span = (row: SymbolRow) => lines.slice(row.startLine - 1, row.endLine).join('\n');
    if (segments.length < 2 || !OWN_OBJECT.has(segments[0])) return span(caller);
    const enclosing = this.store
      .symbolsOf(caller.path)
      .filter((s) => caller.qualifiedName.startsWith(`${s.qualifiedName}.`) && TYPE_KINDS.has(s.kind))
      .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
    return span(enclosing ?? caller);
  }

  /** `scope` (source text) declares or assigns `variable` with the class `type`. */
  private declaredAs(variable: string, type: string, scope: string): boolean {
    if (!/^[\p{L}\p{N}_$]+$/u.test(variable) || !/^[\p{L}\p{N}_$]+$/u.test(type)) return false;
    const v = `[$@]*${escape(variable)}`; // PHP's $m and Ruby's @m declare the m a receiver is written with
    const t = escape(type);
    return [
      new RegExp(`(?<![\\w$])${v}\\s*(?::|=|:=)\\s*[^\\n;]*?(?<![\\w$])${t}(?![\\w$])`), // calc: T, calc = T(), calc := T{}
      new RegExp(`(?<![\\w$])${t}\\s*(?:<[^>\\n]*>)?\\s*[*&]?\\s+[*&]?${v}(?![\\w$])`), // T calc, T* calc, List<T> calc
      new RegExp(`(?<![\\w$])${v}\\s+\\*?(?:\\w+\\.)?${t}(?![\\w$])`), // calc *T, calc pkg.T
    ].some((pattern) => pattern.test(scope));
  }

  private linesOf(path: string): string[] {
    let lines = this.lines.get(path);
    if (lines === undefined) this.lines.set(path, (lines = (this.store.fileText(path) ?? '').split('\n')));
    return lines;
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

/** `Order` for `Order.total`, null for a top-level name. */
function containerOf(qualifiedName: string): string | null {
  const at = qualifiedName.lastIndexOf('.');
  return at === -1 ? null : qualifiedName.slice(0, at);
}

function simpleOf(name: string): string {
  const parts = name.split(SEGMENT_SPLIT);
  return parts[parts.length - 1].trim();
}

/** The variable a receiver names: `calc` in `calc`, `self.calc`, `this.calc`, `$this->calc`, `@calc`. */
function variableOf(segments: readonly string[]): string {
  return segments[segments.length - 1].replace(/^[$@]+/, '');
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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
