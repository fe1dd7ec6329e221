/**
 * The one rule by which a call reaches a definition, without type-checking. A
 * call is a callee name and its receiver as written (symbol-model.ts `calls`).
 * It reaches a definition of that name when:
 *  - it has no receiver and the definition is top level, or nested in a
 *    function the caller sits in, or a method of the caller's own class (or of
 *    a base it names) in a language where a plain call means `this.name()`;
 *  - its receiver is the caller's own object (`self`, `this`, `cls`, …) and the
 *    definition is a method of the caller's class or of a base it names;
 *  - its receiver is the definition's class (`Order.total()`, `Foo::bar()`);
 *  - its receiver is a variable the caller (or, for `self.calc`, the caller's
 *    class) declares or assigns with the definition's class (`calc: Calc`,
 *    `self.calc = Calc()`, `Calc calc`, `calc *Calc`).
 * Anything else is "same name, receiver unknown": `_cv_app.get(None)` in a
 * function is not the method `_AppCtxGlobals.get`. The same-file call graph
 * (the scaffold's invokes / invoked-by, the web view's Symbols page) and
 * find_references all answer through this module, so they agree on every edge;
 * find_references adds the cross-file links (imported modules) on top.
 */
import { TYPE_KINDS, type CallRef, type CodeSymbol } from './symbol-model.js';
import { isLanguageId, type LanguageId } from './languages.js';

/** Receivers that mean "this object" (or its class / parent) across the indexed languages. */
export const OWN_OBJECT: ReadonlySet<string> = new Set(['self', 'this', 'cls', 'Self', 'static', 'super', 'parent', 'base', '$this', '@']);

/** Separators between the parts of a receiver or a qualified name. */
export const RECEIVER_SEPARATOR = /\?\.|&\.|\.|->|::|\\/;

/** What a symbol must say for a call to be resolved against it. */
export type CallSymbol = Pick<CodeSymbol, 'name' | 'qualifiedName' | 'kind' | 'parent' | 'startLine' | 'endLine' | 'bases'>;

/** The caller's file as resolution reads it. */
export interface CallScope {
  /** The file's language id (an unknown one resolves plain calls to methods never). */
  language: string;
  symbols: readonly CallSymbol[];
  /** The file's text lines, or null when not at hand: then no receiver variable resolves (fail closed). */
  lines: readonly string[] | null;
}

/**
 * Whether a plain call (`name()`) inside a method reaches the method's own class
 * members: an implicit `this`. Python, JavaScript, Rust, Go and PHP need the
 * receiver written (`self.`, `this.`, `$this->`).
 */
export function implicitReceiver(language: string): boolean {
  if (!isLanguageId(language)) return false;
  const id: LanguageId = language;
  switch (id) {
    case 'java':
    case 'cpp':
    case 'csharp':
    case 'kotlin':
    case 'swift':
    case 'scala':
    case 'ruby':
      return true;
    case 'python':
    case 'javascript':
    case 'typescript':
    case 'tsx':
    case 'go':
    case 'rust':
    case 'c':
    case 'php':
    case 'bash':
      return false;
  }
}

/**
 * A symbol's calls: the parse's (name, receiver) pairs, or for a symbol built
 * without them its `callees` as written (`self.foo` is `foo` through `self`).
 */
export function callsOf(symbol: Pick<CodeSymbol, 'callees' | 'calls'>): CallRef[] {
  if (symbol.calls) return symbol.calls;
  return symbol.callees.map((callee): CallRef => {
    const parts = callee.split(RECEIVER_SEPARATOR);
    const name = parts.pop()!.trim();
    const receiver = callee.slice(0, Math.max(0, callee.length - name.length)).replace(/(\?\.|&\.|\.|->|::|\\)\s*$/, '').trim();
    return [name, receiver === '' ? null : receiver];
  });
}

/**
 * Whether a call of `target`'s name through `receiver` (null: a plain call),
 * inside `caller` in the file `scope`, can reach `target` by what that file
 * shows (see the module comment). `target` may live in another file.
 */
export function reachesFromFile(receiver: string | null, caller: CallSymbol, target: Pick<CallSymbol, 'qualifiedName'>, scope: CallScope): boolean {
  const container = containerOf(target.qualifiedName);
  if (receiver === null) {
    if (container === null) return true;
    const inside = caller.qualifiedName === container || caller.qualifiedName.startsWith(`${container}.`);
    const functionContainer = scope.symbols.some((s) => s.qualifiedName === container && !TYPE_KINDS.has(s.kind));
    if (functionContainer) return inside;
    return implicitReceiver(scope.language) && (inside || basesName(caller, container, scope.symbols));
  }
  const segments = receiverSegments(receiver);
  if (segments.length === 0 || container === null) return false;
  if (segments.length === 1 && OWN_OBJECT.has(segments[0])) return ownClassReaches(caller, container, scope.symbols);
  if (simpleOf(container) === segments[segments.length - 1]) return true;
  if (scope.lines === null) return false;
  return declaredAs(variableOf(segments), simpleOf(container), declarationScope(segments, caller, scope));
}

/**
 * The definitions among `candidates` (symbols of the caller's own file named
 * like the call) that `call` inside `caller` reaches, by qualified name, sorted.
 * When several do, the nearest wins: a member of the caller's own class or a
 * definition nested in the caller shadows the rest.
 */
export function sameFileTargets(call: CallRef, caller: CallSymbol, candidates: readonly CallSymbol[], scope: CallScope): string[] {
  const reached = [...new Set(candidates.filter((c) => reachesFromFile(call[1], caller, c, scope)).map((c) => c.qualifiedName))];
  if (reached.length <= 1) return reached;
  const near = reached.filter((q) => {
    const container = containerOf(q);
    return container !== null && (caller.qualifiedName === container || caller.qualifiedName.startsWith(`${container}.`));
  });
  return (near.length > 0 ? near : reached).sort();
}

/** The parts of a receiver as written: `self.calc` → [self, calc]; a trailing `()` (`Foo()`) is dropped. */
export function receiverSegments(receiver: string): string[] {
  const cleaned = receiver.replace(/\(\s*\)$/, '').trim();
  return cleaned.split(RECEIVER_SEPARATOR).map((s) => s.trim()).filter(Boolean);
}

/** `Order` for `Order.total`, null for a top-level name. */
export function containerOf(qualifiedName: string): string | null {
  const at = qualifiedName.lastIndexOf('.');
  return at === -1 ? null : qualifiedName.slice(0, at);
}

/** The last part of a qualified name. */
export function simpleOf(name: string): string {
  const parts = name.split(RECEIVER_SEPARATOR);
  return parts[parts.length - 1].trim();
}

/** The caller sits in `container`, or in a class of its file whose bases name it. */
function ownClassReaches(caller: CallSymbol, container: string, symbols: readonly CallSymbol[]): boolean {
  return caller.qualifiedName.startsWith(`${container}.`) || basesName(caller, container, symbols);
}

/** A class of the caller's file that holds the caller names `container` among its bases. */
function basesName(caller: CallSymbol, container: string, symbols: readonly CallSymbol[]): boolean {
  const wanted = simpleOf(container);
  return symbols.some((s) => caller.qualifiedName.startsWith(`${s.qualifiedName}.`) && s.bases.some((b) => simpleOf(b.replace(/[<([].*$/, '')) === wanted));
}

/**
 * Where a receiver variable is declared: the caller's own span (parameters and
 * locals) for `calc`, the enclosing class's span for `self.calc` / `this.calc`.
 */
function declarationScope(segments: readonly string[], caller: CallSymbol, scope: CallScope): string {
  const lines = scope.lines ?? [];
  const span = (row: CallSymbol) => lines.slice(row.startLine - 1, row.endLine).join('\n');
  if (segments.length < 2 || !OWN_OBJECT.has(segments[0])) return span(caller);
  const enclosing = scope.symbols
    .filter((s) => caller.qualifiedName.startsWith(`${s.qualifiedName}.`) && TYPE_KINDS.has(s.kind))
    .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
  return span(enclosing ?? caller);
}

/** `scope` (source text) declares or assigns `variable` with the class `type`. */
function declaredAs(variable: string, type: string, scope: string): boolean {
  if (!/^[\p{L}\p{N}_$]+$/u.test(variable) || !/^[\p{L}\p{N}_$]+$/u.test(type)) return false;
  const v = `[$@]*${escape(variable)}`; // PHP's $m and Ruby's @m declare the m a receiver is written with
  const t = escape(type);
  return [
    new RegExp(`(?<![\\w$])${v}\\s*(?::|=|:=)\\s*[^\\n;]*?(?<![\\w$])${t}(?![\\w$])`), // calc: T, calc = T(), calc := T{}
    new RegExp(`(?<![\\w$])${t}\\s*(?:<[^>\\n]*>)?\\s*[*&]?\\s+[*&]?${v}(?![\\w$])`), // T calc, T* calc, List<T> calc
    new RegExp(`(?<![\\w$])${v}\\s+\\*?(?:\\w+\\.)?${t}(?![\\w$])`), // calc *T, calc pkg.T
  ].some((pattern) => pattern.test(scope));
}

/** The variable a receiver names: `calc` in `calc`, `self.calc`, `this.calc`, `$this->calc`, `@calc`. */
function variableOf(segments: readonly string[]): string {
  return segments[segments.length - 1].replace(/^[$@]+/, '');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
